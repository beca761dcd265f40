#include "guide/processclient.h"

#include "guide/guidewire.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <csignal>

namespace LockScope::Guide {

ProcessClient::ProcessClient(ConnectionOptions connection, RedissonClient::Options options, QString program,
    QStringList arguments, std::function<qint64()> origin, QObject *parent)
    : GuideClient(parent)
    , m_connection(std::move(connection))
    , m_options(std::move(options))
    , m_program(std::move(program))
    , m_arguments(std::move(arguments))
    , m_origin(std::move(origin))
    , m_process(new QProcess(this))
{
    // The child's diagnostics (a sanitizer's report, say) go where the player's go.
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &ProcessClient::onOutput);
    connect(m_process, &QProcess::finished, this, &ProcessClient::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            emit failed(tr("cannot start %1: %2").arg(m_program, m_process->errorString()));
    });
}

ProcessClient::~ProcessClient()
{
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(5000); // SIGKILL: this is at once, whatever the child was doing
    }
}

void ProcessClient::start()
{
    m_process->start(m_program, m_arguments);
    QJsonObject threads;
    for (auto it = m_options.threads.cbegin(); it != m_options.threads.cend(); ++it)
        threads.insert(QString::number(it.key()), QString::fromUtf8(it.value()));
    send({ { QStringLiteral("op"), QStringLiteral("init") },
        { QStringLiteral("client"), Wire::fromBytes(m_options.client) },
        { QStringLiteral("uuid"), Wire::fromBytes(m_options.uuid) }, { QStringLiteral("threads"), threads },
        { QStringLiteral("timeoutMs"), m_options.watchdogTimeoutMs },
        { QStringLiteral("effect"), int(m_options.unlockEffect) },
        { QStringLiteral("connection"), Wire::fromConnection(m_connection) } });
}

QByteArray ProcessClient::owner(qint64 thread) const
{
    return m_options.uuid + ':' + QByteArray::number(thread);
}

void ProcessClient::send(const QJsonObject &command)
{
    m_process->write(QJsonDocument(command).toJson(QJsonDocument::Compact) + '\n');
}

void ProcessClient::call(const QString &op, qint64 thread, const QByteArray &name, QJsonObject more)
{
    more.insert(QStringLiteral("op"), op);
    more.insert(QStringLiteral("thread"), thread);
    more.insert(QStringLiteral("name"), Wire::fromBytes(name));
    send(more);
}

void ProcessClient::lock(qint64 thread, const QByteArray &name, qint64 leaseMs)
{
    call(QStringLiteral("lock"), thread, name, { { QStringLiteral("lease"), leaseMs } });
}

void ProcessClient::tryLock(qint64 thread, const QByteArray &name, qint64 waitMs, qint64 leaseMs)
{
    call(QStringLiteral("tryLock"), thread, name,
        { { QStringLiteral("wait"), waitMs }, { QStringLiteral("lease"), leaseMs } });
}

void ProcessClient::unlock(qint64 thread, const QByteArray &name, bool dropReply, std::optional<UnlockEffect> effect)
{
    call(QStringLiteral("unlock"), thread, name,
        { { QStringLiteral("drop"), dropReply }, { QStringLiteral("effect"), effect ? int(*effect) : -1 } });
}

void ProcessClient::retryUnlock(qint64 thread, const QByteArray &name)
{
    call(QStringLiteral("retryUnlock"), thread, name);
}

void ProcessClient::forceUnlock(qint64 thread, const QByteArray &name)
{
    call(QStringLiteral("forceUnlock"), thread, name);
}

void ProcessClient::raw(qint64 thread, const QList<QByteArray> &argv)
{
    call(QStringLiteral("raw"), thread, {}, { { QStringLiteral("argv"), Wire::fromList(argv) } });
}

void ProcessClient::stop()
{
    if (m_process->state() == QProcess::NotRunning)
        return;
    // A demo actor has nothing to save: the player deletes what it wrote.
    m_killed = true;
    m_process->kill();
}

bool ProcessClient::sendSignal(Signal signal)
{
    if (m_pid <= 0 || m_process->state() != QProcess::Running)
        return false;
    switch (signal) {
    case Signal::Kill:
        m_killed = true;
        m_process->kill(); // SIGKILL: no finally block, no shutdown hook, the watchdog's timer gone with it
        return true;
    case Signal::Freeze:
        return ::kill(pid_t(m_pid), SIGSTOP) == 0;
    case Signal::Thaw:
        return ::kill(pid_t(m_pid), SIGCONT) == 0;
    }
    return false;
}

void ProcessClient::onOutput()
{
    m_buffer += m_process->readAllStandardOutput();
    for (qsizetype end; (end = m_buffer.indexOf('\n')) >= 0;) {
        const QJsonObject o = QJsonDocument::fromJson(m_buffer.left(end)).object();
        m_buffer.remove(0, end + 1);
        if (o.contains(QStringLiteral("ready"))) {
            m_pid = o.value(QStringLiteral("ready")).toInteger();
            m_ready = true;
            emit ready();
        } else if (o.contains(QStringLiteral("record"))) {
            GuideRecord r = Wire::toRecord(o.value(QStringLiteral("record")).toObject());
            r.tMs -= m_origin(); // the machine's monotonic clock, made the scenario's
            emit record(r);
        }
    }
}

void ProcessClient::onFinished()
{
    if (m_killed)
        return;
    const QString why = m_process->exitStatus() == QProcess::CrashExit
        ? tr("the process of client %1 crashed").arg(QString::fromUtf8(m_options.client))
        : tr("the process of client %1 ended (exit code %2)")
              .arg(QString::fromUtf8(m_options.client))
              .arg(m_process->exitCode());
    emit failed(why);
}

} // namespace LockScope::Guide
