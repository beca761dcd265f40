#include "redisserver.h"

#include "local/localredisserver.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>

namespace LockScope::Test {

namespace {

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
{
    LocalRedisServer::Options local;
    local.extraArgs = m_options.extraArgs;
    local.configText = m_options.configText;
    // In the config file (in a private directory), not on the command line, where ps would show it to everyone.
    if (!m_options.requirePass.isEmpty())
        local.configText += "requirepass " + m_options.requirePass.toUtf8() + '\n';
    // The TLS port is picked together with the plain one, and both come back after a restart.
    local.extraPortCount = (m_options.tls ? 1 : 0) + (m_options.cluster ? 1 : 0);
    local.extraPortArgs = [this](const QList<quint16> &extraPorts) { return serverArgs(extraPorts); };
    m_server = std::make_unique<LocalRedisServer>(std::move(local));
}

RedisServer::~RedisServer()
{
    killHard();
}

QString RedisServer::dir() const
{
    return m_server->dir();
}

QString RedisServer::filePath(const QString &name) const
{
    return m_server->dir() + QLatin1Char('/') + name;
}

quint16 RedisServer::port() const
{
    return m_server->port();
}

quint16 RedisServer::tlsPort() const
{
    return m_server->extraPorts().value(0);
}

QString RedisServer::url() const
{
    return QStringLiteral("redis://%1:%2").arg(host()).arg(port());
}

QString RedisServer::tlsUrl() const
{
    return QStringLiteral("rediss://localhost:%1").arg(tlsPort());
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
    QFile file(m_server->logFile());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

bool RedisServer::isRunning() const
{
    return m_server->isRunning();
}

qint64 RedisServer::pid() const
{
    return m_server->pid();
}

bool RedisServer::start(QString *error)
{
    if (m_options.tls && !ensureCertificates(error))
        return false;
    return m_server->start(error);
}

// Added to the fixed arguments on every (re)start, before options().extraArgs.
QStringList RedisServer::serverArgs(const QList<quint16> &extraPorts) const
{
    QStringList args;
    if (m_options.tls) {
        args << QStringLiteral("--tls-port") << QString::number(extraPorts.value(0))
             << QStringLiteral("--tls-cert-file") << serverCertFile() << QStringLiteral("--tls-key-file")
             << serverKeyFile() << QStringLiteral("--tls-ca-cert-file") << caFile()
             << QStringLiteral("--tls-auth-clients")
             << (m_options.tlsAuthClients ? QStringLiteral("yes") : QStringLiteral("no"));
    }
    if (m_options.cluster) {
        // The bus port is chosen, not port + 10000, which may be taken or out of range.
        args << QStringLiteral("--cluster-enabled") << QStringLiteral("yes") << QStringLiteral("--cluster-config-file")
             << QStringLiteral("nodes.conf") << QStringLiteral("--cluster-node-timeout") << QStringLiteral("2000")
             << QStringLiteral("--repl-diskless-sync-delay") << QStringLiteral("0") << QStringLiteral("--cluster-port")
             << QString::number(extraPorts.value(m_options.tls ? 1 : 0));
    }
    return args;
}

void RedisServer::stop()
{
    m_server->stop();
}

void RedisServer::killHard()
{
    m_server->killHard();
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
    process.setWorkingDirectory(dir());
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
