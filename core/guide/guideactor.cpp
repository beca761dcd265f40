#include "guide/guideactor.h"

#include "guide/guidewire.h"
#include "guide/redissonclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSocketNotifier>

#include <csignal>
#include <unistd.h>
#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif

namespace LockScope::Guide {

namespace {

// The monotonic clock every process of the machine shares: the parent turns it into its scenario's time.
qint64 monotonicMs()
{
    QElapsedTimer now;
    now.start();
    return now.msecsSinceReference();
}

class ActorHost : public QObject
{
public:
    ActorHost()
        : m_input(STDIN_FILENO, QSocketNotifier::Read)
    {
        // The descriptor, not stdio's FILE: a pipe's FILE is block-buffered, and every line must reach the player at
        // once.
        m_output.open(STDOUT_FILENO, QIODevice::WriteOnly | QIODevice::Unbuffered);
        connect(&m_input, &QSocketNotifier::activated, this, &ActorHost::onInput);
    }

private:
    void onInput()
    {
        char buffer[4096];
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n <= 0) {
            // The player is gone, or closed our input: nothing more will come.
            m_input.setEnabled(false);
            finish();
            return;
        }
        m_buffer.append(buffer, int(n));
        for (qsizetype end; (end = m_buffer.indexOf('\n')) >= 0;) {
            const QByteArray line = m_buffer.left(end);
            m_buffer.remove(0, end + 1);
            handle(QJsonDocument::fromJson(line).object());
        }
    }

    void write(const QJsonObject &object)
    {
        m_output.write(QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n');
    }

    void handle(const QJsonObject &c)
    {
        const QString op = c.value(QStringLiteral("op")).toString();
        if (op == QLatin1String("init")) {
            start(c);
            return;
        }
        if (op == QLatin1String("stop") || !m_client) {
            finish();
            return;
        }
        const qint64 thread = c.value(QStringLiteral("thread")).toInteger();
        const QByteArray name = Wire::toBytes(c.value(QStringLiteral("name")));
        const qint64 lease = c.value(QStringLiteral("lease")).toInteger(-1);
        if (op == QLatin1String("lock")) {
            m_client->lock(thread, name, lease);
        } else if (op == QLatin1String("tryLock")) {
            m_client->tryLock(thread, name, c.value(QStringLiteral("wait")).toInteger(-1), lease);
        } else if (op == QLatin1String("unlock")) {
            const int effect = c.value(QStringLiteral("effect")).toInt(-1);
            m_client->unlock(thread, name, c.value(QStringLiteral("drop")).toBool(),
                effect < 0 ? std::nullopt : std::optional<UnlockEffect>(UnlockEffect(effect)));
        } else if (op == QLatin1String("retryUnlock")) {
            m_client->retryUnlock(thread, name);
        } else if (op == QLatin1String("forceUnlock")) {
            m_client->forceUnlock(thread, name);
        } else if (op == QLatin1String("raw")) {
            m_client->raw(thread, Wire::toList(c.value(QStringLiteral("argv"))));
        }
    }

    void start(const QJsonObject &c)
    {
        RedissonClient::Options options;
        options.client = Wire::toBytes(c.value(QStringLiteral("client")));
        options.uuid = Wire::toBytes(c.value(QStringLiteral("uuid")));
        const QJsonObject threads = c.value(QStringLiteral("threads")).toObject();
        for (auto it = threads.begin(); it != threads.end(); ++it)
            options.threads.insert(it.key().toLongLong(), it.value().toString().toUtf8());
        options.watchdogTimeoutMs = c.value(QStringLiteral("timeoutMs")).toInt(30000);
        options.unlockEffect = UnlockEffect(c.value(QStringLiteral("effect")).toInt());
        m_client = new RedissonClient(
            Wire::toConnection(c.value(QStringLiteral("connection")).toObject()), options, monotonicMs, this);
        connect(m_client, &GuideClient::record, this, [this](const GuideRecord &record) {
            write({ { QStringLiteral("record"), Wire::fromRecord(record) } });
        });
        write({ { QStringLiteral("ready"), qint64(QCoreApplication::applicationPid()) } });
    }

    void finish()
    {
        if (m_client)
            m_client->stop();
        QCoreApplication::quit();
    }

    QSocketNotifier m_input;
    QFile m_output;
    QByteArray m_buffer;
    RedissonClient *m_client = nullptr;
};

} // namespace

int runGuideActor()
{
#ifdef Q_OS_LINUX
    // A frozen child outlives a player that crashed: it could never read the EOF on its input. Die with the parent.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() == 1)
        return 1;
#endif
    ActorHost host;
    return QCoreApplication::exec();
}

} // namespace LockScope::Guide
