#include "redisserver.h"

#include "rawredis.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#include <vector>

namespace LockScope::Test {

namespace {

constexpr int readyTimeoutMs = 10000;
constexpr int maxNewPortAttempts = 3;
const char logFileName[] = "redis-server.log";

// Ports are picked together and released together so that the plain and TLS listeners never collide.
// Something else may grab a port between release and redis-server's bind: start() retries for that.
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

const char opensslConfig[] = R"([req]
distinguished_name = dn
[dn]
[ca_ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server_ext]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[client_ext]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[rogue_ext]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
)";

} // namespace

RedisServer::RedisServer(RedisServerOptions options)
    : m_options(std::move(options))
    , m_dir(QDir::tempPath() + QStringLiteral("/lockscope-redis-XXXXXX"))
{ }

RedisServer::~RedisServer()
{
    killHard();
}

QString RedisServer::dir() const
{
    return m_dir.path();
}

QString RedisServer::filePath(const QString &name) const
{
    return m_dir.filePath(name);
}

QString RedisServer::url() const
{
    return QStringLiteral("redis://%1:%2").arg(host()).arg(m_port);
}

QString RedisServer::tlsUrl() const
{
    return QStringLiteral("rediss://localhost:%1").arg(m_tlsPort);
}

QString RedisServer::caFile() const
{
    return filePath(QStringLiteral("ca.crt"));
}

QString RedisServer::serverCertFile() const
{
    return filePath(QStringLiteral("server.crt"));
}

QString RedisServer::serverKeyFile() const
{
    return filePath(QStringLiteral("server.key"));
}

QString RedisServer::clientCertFile() const
{
    return filePath(QStringLiteral("client.crt"));
}

QString RedisServer::clientKeyFile() const
{
    return filePath(QStringLiteral("client.key"));
}

QString RedisServer::rogueCaFile() const
{
    return filePath(QStringLiteral("rogue-ca.crt"));
}

QString RedisServer::rogueCertFile() const
{
    return filePath(QStringLiteral("rogue.crt"));
}

QString RedisServer::rogueKeyFile() const
{
    return filePath(QStringLiteral("rogue.key"));
}

QString RedisServer::serverLog() const
{
    QFile file(filePath(QLatin1String(logFileName)));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QString RedisServer::logTail() const
{
    QStringList lines = serverLog().split(QLatin1Char('\n'));
    if (lines.size() > 40)
        lines = lines.mid(lines.size() - 40);
    return lines.join(QLatin1Char('\n'));
}

bool RedisServer::isRunning() const
{
    if (!m_process)
        return false;
    // Without an event loop QProcess only learns about an exit when asked to wait.
    m_process->waitForFinished(0);
    return m_process->state() != QProcess::NotRunning;
}

qint64 RedisServer::pid() const
{
    return isRunning() ? m_process->processId() : 0;
}

bool RedisServer::start(QString *error)
{
    if (isRunning())
        return true;
    if (!m_dir.isValid()) {
        setError(error, QStringLiteral("cannot create a temporary directory: %1").arg(m_dir.errorString()));
        return false;
    }
    if (m_options.tls && !ensureCertificates(error))
        return false;

    QString lastError;
    if (m_port != 0) {
        if (startOnce(m_port, m_tlsPort, &lastError))
            return true;
        killHard();
    }
    for (int attempt = 0; attempt < maxNewPortAttempts; ++attempt) {
        const QList<quint16> ports = freeLoopbackPorts(m_options.tls ? 2 : 1);
        if (ports.isEmpty()) {
            lastError = QStringLiteral("cannot find a free loopback port");
            continue;
        }
        if (startOnce(ports.at(0), m_options.tls ? ports.at(1) : 0, &lastError))
            return true;
        const bool exitedEarly = m_process && m_process->state() == QProcess::NotRunning;
        killHard();
        // A timeout is not a port clash; retrying would only triple the wait.
        if (!exitedEarly)
            break;
    }
    setError(error, QStringLiteral("%1\n--- redis-server log (tail) ---\n%2").arg(lastError, logTail()));
    return false;
}

bool RedisServer::startOnce(quint16 port, quint16 tlsPort, QString *error)
{
    const QString executable = QStandardPaths::findExecutable(QStringLiteral("redis-server"));
    if (executable.isEmpty()) {
        setError(error, QStringLiteral("redis-server not found on PATH (install the redis-server package)"));
        return false;
    }

    QStringList args { QStringLiteral("--port"), QString::number(port), QStringLiteral("--bind"), host(),
        QStringLiteral("--save"), QString(), QStringLiteral("--appendonly"), QStringLiteral("no"),
        QStringLiteral("--daemonize"), QStringLiteral("no"), QStringLiteral("--dir"), m_dir.path() };
    if (!m_options.requirePass.isEmpty())
        args << QStringLiteral("--requirepass") << m_options.requirePass;
    if (m_options.tls) {
        args << QStringLiteral("--tls-port") << QString::number(tlsPort) << QStringLiteral("--tls-cert-file")
             << serverCertFile() << QStringLiteral("--tls-key-file") << serverKeyFile()
             << QStringLiteral("--tls-ca-cert-file") << caFile() << QStringLiteral("--tls-auth-clients")
             << (m_options.tlsAuthClients ? QStringLiteral("yes") : QStringLiteral("no"));
    }
    args << m_options.extraArgs;

    const QString logPath = filePath(QLatin1String(logFileName));
    {
        // Marks each attempt so that a log spanning restarts can still be read.
        QFile log(logPath);
        if (log.open(QIODevice::Append))
            log.write(QStringLiteral("=== fixture: %1 %2\n").arg(executable, args.join(QLatin1Char(' '))).toUtf8());
    }

    auto process = std::make_unique<QProcess>();
    process->setProgram(executable);
    process->setArguments(args);
    process->setWorkingDirectory(m_dir.path());
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->setStandardInputFile(QProcess::nullDevice());
    // A file rather than a pipe: nobody reads a pipe while a test blocks, and a full pipe would stall redis.
    // The file also outlives the process, which is when the log matters most.
    process->setStandardOutputFile(logPath, QIODevice::Append);
    const pid_t parent = ::getpid();
    process->setChildProcessModifier([parent] {
        // The kernel sends this when the forking *thread* exits, so start servers from a long-lived thread.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        // The parent may have died before prctl took effect; then nobody would ever kill this server.
        if (::getppid() != parent)
            ::_exit(127);
    });
    process->start();
    if (!process->waitForStarted(5000)) {
        setError(error, QStringLiteral("cannot start %1: %2").arg(executable, process->errorString()));
        return false;
    }
    m_process = std::move(process);
    m_port = port;
    m_tlsPort = tlsPort;
    return waitUntilReady(error);
}

bool RedisServer::waitUntilReady(QString *error)
{
    const QDeadlineTimer deadline(readyTimeoutMs);
    QString lastProbe;
    while (!deadline.hasExpired()) {
        if (m_process->state() == QProcess::NotRunning) {
            setError(error,
                QStringLiteral("redis-server on port %1 exited during start-up (exit code %2)")
                    .arg(m_port)
                    .arg(m_process->exitCode()));
            return false;
        }
        RawRedis probe(m_port, {}, m_options.requirePass.toUtf8());
        if (probe.isConnected()) {
            const RedisValue reply = probe.command({ QByteArrayLiteral("PING") });
            // NOAUTH still proves the server is serving: the password came from extraArgs, not from the options.
            if ((reply.isStatus() && reply.bytes() == "PONG")
                || (reply.isError() && reply.bytes().startsWith("NOAUTH")))
                return true;
            lastProbe = reply.toDebugString();
        } else {
            lastProbe = probe.errorString();
        }
        // Doubles as the pause between probes and notices an early exit (e.g. the port was taken) at once.
        m_process->waitForFinished(10);
    }
    setError(error,
        QStringLiteral("redis-server on port %1 not ready after %2 ms (last probe: %3)")
            .arg(m_port)
            .arg(readyTimeoutMs)
            .arg(lastProbe));
    return false;
}

void RedisServer::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
    m_process.reset();
}

void RedisServer::killHard()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
    m_process.reset();
}

bool RedisServer::writeFile(const QString &name, const QByteArray &contents, QString *error)
{
    QFile file(filePath(name));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(contents) != contents.size()) {
        setError(error, QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString()));
        return false;
    }
    return true;
}

bool RedisServer::runOpenssl(const QStringList &args, QString *error)
{
    const QString executable = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    if (executable.isEmpty()) {
        setError(error, QStringLiteral("openssl not found on PATH (needed for TLS test certificates)"));
        return false;
    }
    QProcess process;
    process.setWorkingDirectory(m_dir.path());
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(executable, args);
    const bool finished = process.waitForStarted(5000) && process.waitForFinished(60000);
    if (!finished || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        setError(error,
            QStringLiteral("openssl %1 failed: %2\n%3")
                .arg(args.join(QLatin1Char(' ')), process.errorString(),
                    QString::fromUtf8(process.readAllStandardOutput())));
        return false;
    }
    return true;
}

bool RedisServer::ensureCertificates(QString *error)
{
    if (m_certificatesReady)
        return true;
    // An own config file keeps the result independent of the system openssl.cnf and its default extensions.
    if (!writeFile(QStringLiteral("openssl.cnf"), QByteArray(opensslConfig), error))
        return false;

    // Fixed arguments as one string for readability; paths go separately because they may contain spaces.
    const auto openssl = [&](const char *fixed, const QStringList &paths) {
        return runOpenssl(QString::fromLatin1(fixed).split(QLatin1Char(' '), Qt::SkipEmptyParts) + paths, error);
    };
    const QString config = filePath(QStringLiteral("openssl.cnf"));
    const auto file
        = [this](const QString &base, const char *suffix) { return filePath(base + QLatin1String(suffix)); };
    const auto makeCa = [&](const QString &base, const char *subject) {
        return openssl("req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -extensions ca_ext",
            { QStringLiteral("-config"), config, QStringLiteral("-subj"), QLatin1String(subject),
                QStringLiteral("-keyout"), file(base, ".key"), QStringLiteral("-out"), file(base, ".crt") });
    };
    const auto makeLeaf = [&](const QString &base, const char *subject, const QString &ca, const char *signFixed) {
        return openssl("req -new -newkey rsa:2048 -nodes",
                   { QStringLiteral("-config"), config, QStringLiteral("-subj"), QLatin1String(subject),
                       QStringLiteral("-keyout"), file(base, ".key"), QStringLiteral("-out"), file(base, ".csr") })
            && openssl(signFixed,
                { QStringLiteral("-extfile"), config, QStringLiteral("-in"), file(base, ".csr"), QStringLiteral("-CA"),
                    file(ca, ".crt"), QStringLiteral("-CAkey"), file(ca, ".key"), QStringLiteral("-out"),
                    file(base, ".crt") });
    };

    const QString ca = QStringLiteral("ca");
    const QString rogueCa = QStringLiteral("rogue-ca");
    m_certificatesReady = makeCa(ca, "/CN=LockScope Test CA")
        && makeLeaf(QStringLiteral("server"), "/CN=localhost", ca,
            "x509 -req -sha256 -days 3650 -set_serial 4097 -extensions server_ext")
        && makeLeaf(QStringLiteral("client"), "/CN=lockscope-test-client", ca,
            "x509 -req -sha256 -days 3650 -set_serial 4098 -extensions client_ext")
        && makeCa(rogueCa, "/CN=Rogue Test CA")
        && makeLeaf(QStringLiteral("rogue"), "/CN=localhost", rogueCa,
            "x509 -req -sha256 -days 3650 -set_serial 8193 -extensions rogue_ext");
    return m_certificatesReady;
}

} // namespace LockScope::Test
