#include "local/localredisserver.h"

#include "local/redisprobe.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTimer>

#include <csignal>
#include <memory>
#include <utility>
#include <vector>
#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif
#include <unistd.h>

namespace LockScope {

namespace {

constexpr int maxNewPortAttempts = 3;
constexpr int probeTimeoutMs = 1000;
constexpr int probePauseMs = 10;
constexpr int stopGraceMs = 5000;
const char logFileName[] = "redis-server.log";

// Ports are picked together and released together so that several listeners never collide. Something else
// may grab a port between release and redis-server's bind: the start retries with new ports for that.
QList<quint16> freeLoopbackPorts(int count)
{
    std::vector<std::unique_ptr<QTcpServer>> holders;
    QList<quint16> ports;
    for (int i = 0; i < count; ++i) {
        auto holder = std::make_unique<QTcpServer>();
        if (!holder->listen(QHostAddress::LocalHost, 0))
            return {};
        ports.append(holder->serverPort());
        holders.push_back(std::move(holder));
    }
    return ports;
}

void setError(QString *error, const QString &message)
{
    if (error)
        *error = message;
}

// The log records every command line; a password has no business there.
QString maskedCommandLine(const QString &executable, QStringList args)
{
    for (int i = 0; i + 1 < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--requirepass") || args.at(i) == QLatin1String("--masterauth"))
            args[i + 1] = QStringLiteral("***");
    }
    return executable + QLatin1Char(' ') + args.join(QLatin1Char(' '));
}

} // namespace

LocalRedisServer::LocalRedisServer(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_dir(QDir::tempPath() + QStringLiteral("/lockscope-redis-XXXXXX"))
{ }

LocalRedisServer::~LocalRedisServer()
{
    killHard();
}

QString LocalRedisServer::url() const
{
    return QStringLiteral("redis://127.0.0.1:%1").arg(m_port);
}

QString LocalRedisServer::dir() const
{
    return m_dir.path();
}

QString LocalRedisServer::logFile() const
{
    return m_dir.filePath(QLatin1String(logFileName));
}

QString LocalRedisServer::logTail(int lines) const
{
    QFile file(logFile());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList all = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    if (all.size() > lines)
        all = all.mid(all.size() - lines);
    return all.join(QLatin1Char('\n'));
}

bool LocalRedisServer::isRunning() const
{
    if (!m_process)
        return false;
    // Without an event loop QProcess only learns about an exit when asked to wait; that may also run
    // onProcessFinished(), which clears m_process.
    if (m_process->state() != QProcess::NotRunning)
        m_process->waitForFinished(0);
    return m_process && m_process->state() != QProcess::NotRunning;
}

qint64 LocalRedisServer::pid() const
{
    return isRunning() ? m_process->processId() : 0;
}

QString LocalRedisServer::withLog(const QString &message) const
{
    return tr("%1\n--- redis-server log (tail) ---\n%2").arg(message, logTail());
}

QString LocalRedisServer::notReadyMessage(const QString &lastProbe) const
{
    return tr("redis-server on port %1 not ready after %2 ms (last probe: %3)")
        .arg(m_port)
        .arg(m_options.readyTimeoutMs)
        .arg(lastProbe);
}

QString LocalRedisServer::exitedEarlyMessage() const
{
    return tr("redis-server on port %1 exited during start-up (exit code %2)")
        .arg(m_port)
        .arg(m_process ? m_process->exitCode() : -1);
}

bool LocalRedisServer::prepare(QString *error)
{
    if (!m_dir.isValid()) {
        setError(error, tr("cannot create a temporary directory: %1").arg(m_dir.errorString()));
        return false;
    }
    m_executable = m_options.executable.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("redis-server"))
                                                  : m_options.executable;
    if (m_executable.isEmpty()) {
        setError(error, tr("redis-server not found on PATH (install the redis-server package)"));
        return false;
    }
    return true;
}

// Attempt 0 goes back to the previous ports (or the preferred ones) when there are any.
bool LocalRedisServer::pickPorts(int attempt, QString *error)
{
    const quint16 previous = m_port ? m_port : m_options.preferredPort;
    const QList<quint16> previousExtra = m_port ? m_extraPorts : m_options.preferredExtraPorts;
    if (attempt == 0 && previous != 0 && previousExtra.size() == m_options.extraPortCount) {
        m_port = previous;
        m_extraPorts = previousExtra;
        return true;
    }
    const QList<quint16> ports = freeLoopbackPorts(1 + m_options.extraPortCount);
    if (ports.isEmpty()) {
        setError(error, tr("cannot find a free loopback port"));
        return false;
    }
    m_port = ports.first();
    m_extraPorts = ports.mid(1);
    return true;
}

bool LocalRedisServer::launch(QString *error)
{
    QStringList args;
    if (!m_options.configText.isEmpty()) {
        QFile config(m_dir.filePath(QStringLiteral("lockscope.conf")));
        if (!config.open(QIODevice::WriteOnly | QIODevice::Truncate) || config.write(m_options.configText) < 0) {
            setError(error, tr("cannot write %1: %2").arg(config.fileName(), config.errorString()));
            return false;
        }
        args << config.fileName();
    }
    args << QStringList { QStringLiteral("--port"), QString::number(m_port), QStringLiteral("--bind"),
        QStringLiteral("127.0.0.1"), QStringLiteral("--save"), QString(), QStringLiteral("--appendonly"),
        QStringLiteral("no"), QStringLiteral("--daemonize"), QStringLiteral("no"), QStringLiteral("--dir"),
        m_dir.path() };
    if (m_options.extraPortArgs)
        args << m_options.extraPortArgs(m_extraPorts);
    args << m_options.extraArgs;

    {
        // Marks each attempt so that a log spanning restarts can still be read.
        QFile log(logFile());
        if (log.open(QIODevice::Append))
            log.write(QStringLiteral("=== lockscope: %1\n").arg(maskedCommandLine(m_executable, args)).toUtf8());
    }

    m_process = new QProcess(this);
    m_process->setProgram(m_executable);
    m_process->setArguments(args);
    m_process->setWorkingDirectory(m_dir.path());
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardInputFile(QProcess::nullDevice());
    // A file rather than a pipe: nobody may read a pipe while a caller blocks, and a full pipe would stall
    // redis. The file also outlives the process, which is when the log matters most.
    m_process->setStandardOutputFile(logFile(), QIODevice::Append);
    const pid_t parent = ::getpid();
    m_process->setChildProcessModifier([parent] {
#ifdef Q_OS_LINUX
        // The kernel sends this when the forking *thread* exits, so start servers from a long-lived thread.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        // The parent may have died before prctl took effect; then nobody would ever kill this server.
        if (::getppid() != parent)
            ::_exit(127);
    });
    connect(m_process, &QProcess::finished, this, &LocalRedisServer::onProcessFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && m_state == State::StartingAsync)
            asyncFail(tr("cannot start %1: %2").arg(m_executable, m_process->errorString()));
    });
    m_process->start();
    if (m_state == State::StartingBlocking && !m_process->waitForStarted(5000)) {
        setError(error, tr("cannot start %1: %2").arg(m_executable, m_process->errorString()));
        return false;
    }
    return true;
}

void LocalRedisServer::discardProcess(bool graceful)
{
    QProcess *process = std::exchange(m_process, nullptr);
    if (!process)
        return;
    disconnect(process, nullptr, this, nullptr);
    if (process->state() != QProcess::NotRunning) {
        if (graceful) {
            process->terminate();
            graceful = process->waitForFinished(stopGraceMs);
        }
        if (!graceful) {
            process->kill();
            process->waitForFinished(stopGraceMs);
        }
    }
    // May run inside one of the process's own signals (finished during an async start).
    process->deleteLater();
}

bool LocalRedisServer::start(QString *error)
{
    if (isReady())
        return true;
    if (m_state == State::StartingAsync) {
        setError(error, tr("an asynchronous start is already in progress"));
        return false;
    }
    discardProcess(false);
    if (!prepare(error))
        return false;

    m_state = State::StartingBlocking;
    const bool havePrevious = m_port != 0 || m_options.preferredPort != 0;
    QString lastError;
    for (int attempt = havePrevious ? 0 : 1; attempt <= maxNewPortAttempts; ++attempt) {
        if (!pickPorts(attempt, &lastError))
            continue;
        if (launch(&lastError) && waitUntilReady(&lastError)) {
            m_state = State::Ready;
            return true;
        }
        const bool exitedEarly = m_process && m_process->state() == QProcess::NotRunning;
        discardProcess(false);
        // A timeout is not a port clash; retrying would only multiply the wait.
        if (!exitedEarly && attempt > 0)
            break;
    }
    m_state = State::Idle;
    setError(error, withLog(lastError));
    return false;
}

bool LocalRedisServer::waitUntilReady(QString *error)
{
    const QDeadlineTimer deadline(m_options.readyTimeoutMs);
    QString lastProbe;
    while (!deadline.hasExpired()) {
        if (m_process->state() == QProcess::NotRunning) {
            setError(error, exitedEarlyMessage());
            return false;
        }
        if (RedisProbe::pingBlocking(m_port, probeTimeoutMs, &lastProbe))
            return true;
        // Doubles as the pause between probes and notices an early exit (e.g. the port was taken) at once.
        m_process->waitForFinished(probePauseMs);
    }
    setError(error, notReadyMessage(lastProbe));
    return false;
}

void LocalRedisServer::startAsync()
{
    if (isReady()) {
        QMetaObject::invokeMethod(this, &LocalRedisServer::ready, Qt::QueuedConnection);
        return;
    }
    if (m_state == State::StartingAsync)
        return;
    discardProcess(false);
    QString error;
    if (!prepare(&error)) {
        // Reported later, as every other outcome, so callers can connect after calling.
        QMetaObject::invokeMethod(
            this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
        return;
    }
    m_state = State::StartingAsync;
    m_attempt = (m_port != 0 || m_options.preferredPort != 0) ? 0 : 1;
    if (!m_probeTimer) {
        m_probeTimer = new QTimer(this);
        m_probeTimer->setSingleShot(true);
        connect(m_probeTimer, &QTimer::timeout, this, &LocalRedisServer::asyncProbe);
    }
    asyncAttempt();
}

void LocalRedisServer::asyncAttempt()
{
    QString error;
    if (!pickPorts(m_attempt, &error) || !launch(&error)) {
        asyncFail(error);
        return;
    }
    m_deadline = QDeadlineTimer(m_options.readyTimeoutMs);
    m_lastProbe.clear();
    m_probeTimer->start(probePauseMs);
}

void LocalRedisServer::asyncProbe()
{
    if (m_state != State::StartingAsync)
        return;
    m_probe = new RedisProbe(m_port, probeTimeoutMs, this);
    connect(m_probe, &RedisProbe::done, this, [this](bool up, const QString &detail) {
        endAsyncProbe();
        if (!up) {
            asyncProbeFailed(detail);
            return;
        }
        m_state = State::Ready;
        emit ready();
    });
}

void LocalRedisServer::endAsyncProbe()
{
    if (m_probeTimer)
        m_probeTimer->stop();
    if (RedisProbe *probe = std::exchange(m_probe, nullptr)) {
        disconnect(probe, nullptr, this, nullptr);
        // May run inside the probe's own signal.
        probe->deleteLater();
    }
}

void LocalRedisServer::asyncProbeFailed(const QString &detail)
{
    m_lastProbe = detail;
    if (!m_deadline.hasExpired()) {
        m_probeTimer->start(probePauseMs);
        return;
    }
    // Only the previous port deserves a second chance after a timeout; new ports would time out alike.
    if (m_attempt > 0) {
        asyncFail(notReadyMessage(m_lastProbe));
        return;
    }
    discardProcess(false);
    ++m_attempt;
    asyncAttempt();
}

void LocalRedisServer::asyncFail(const QString &error)
{
    endAsyncProbe();
    discardProcess(false);
    m_state = State::Idle;
    emit failed(withLog(error));
}

void LocalRedisServer::onProcessFinished()
{
    if (m_state == State::StartingAsync) {
        const QString message = exitedEarlyMessage();
        endAsyncProbe();
        discardProcess(false);
        // An early exit is most often a port someone else took meanwhile: new ports, a few times.
        if (++m_attempt <= maxNewPortAttempts)
            asyncAttempt();
        else
            asyncFail(message);
    } else if (m_state == State::Ready) {
        const QString message
            = tr("redis-server on port %1 exited unexpectedly (exit code %2)").arg(m_port).arg(m_process->exitCode());
        discardProcess(false);
        m_state = State::Idle;
        emit exitedUnexpectedly(withLog(message));
    }
    // StartingBlocking: the waiting loop notices the exit itself.
}

void LocalRedisServer::shutDown(bool graceful)
{
    endAsyncProbe();
    discardProcess(graceful);
    m_state = State::Idle;
}

} // namespace LockScope
