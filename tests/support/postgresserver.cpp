#include "postgresserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QTcpServer>
#include <QVersionNumber>

#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace LockScope::Test {

namespace {
constexpr int kReadyTimeoutMs = 60000;
constexpr int kStopGraceMs = 10000;

// Held only to learn a free port; postgres may lose it to somebody else before it binds, and start() then tries again.
quint16 freeLoopbackPort()
{
    QTcpServer holder;
    return holder.listen(QHostAddress::LocalHost, 0) ? holder.serverPort() : 0;
}

bool asRoot()
{
    return ::geteuid() == 0;
}
} // namespace

PostgresServer::PostgresServer()
    : m_bin(binDir())
{ }

PostgresServer::~PostgresServer()
{
    stop();
}

QString PostgresServer::binDir()
{
    const QDir root(QStringLiteral("/usr/lib/postgresql"));
    QString best;
    QVersionNumber newest;
    for (const QString &version : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString bin = root.filePath(version + QStringLiteral("/bin"));
        const QVersionNumber v = QVersionNumber::fromString(version);
        if (QFile::exists(bin + QStringLiteral("/postgres")) && QFile::exists(bin + QStringLiteral("/initdb"))
            && (best.isEmpty() || v > newest)) {
            best = bin;
            newest = v;
        }
    }
    return best;
}

void PostgresServer::asPostgres(QProcess &p, const QString &program, const QStringList &args) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(m_dir.path());
    p.setStandardInputFile(QProcess::nullDevice());
    const QString path = m_bin + QLatin1Char('/') + program;
    if (!asRoot()) {
        p.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        p.setProgram(path);
        p.setArguments(args);
        return;
    }
    // A change of user clears the parent-death signal: setpriv sets it again after its own.
    p.setProgram(QStringLiteral("setpriv"));
    p.setArguments(QStringList { QStringLiteral("--reuid=postgres"), QStringLiteral("--regid=postgres"),
                       QStringLiteral("--init-groups"), QStringLiteral("--pdeathsig=KILL"), QStringLiteral("--"), path }
        + args);
}

bool PostgresServer::run(const QString &program, const QStringList &args, QString *error, QByteArray *output) const
{
    QProcess p;
    asPostgres(p, program, args);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start();
    if (!p.waitForFinished(kReadyTimeoutMs) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        if (p.state() != QProcess::NotRunning) {
            p.kill();
            p.waitForFinished();
        }
        *error = QStringLiteral("%1 %2 failed: %3%4")
                     .arg(program, args.join(QLatin1Char(' ')), p.errorString(),
                         QString::fromLocal8Bit(p.readAll()).prepend(QLatin1Char('\n')));
        return false;
    }
    if (output)
        *output = p.readAll();
    return true;
}

bool PostgresServer::start(QString *error)
{
    if (m_bin.isEmpty()) {
        *error = QStringLiteral("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres)");
        return false;
    }
    if (!m_dir.isValid()) {
        *error = QStringLiteral("cannot create a temporary directory");
        return false;
    }
    if (asRoot()) {
        const passwd *pw = ::getpwnam("postgres");
        if (!pw || ::chown(QFile::encodeName(m_dir.path()).constData(), pw->pw_uid, pw->pw_gid) != 0) {
            *error = QStringLiteral("running as root needs the user postgres (Debian's postgresql package makes it)");
            return false;
        }
    }
    if (!run(QStringLiteral("initdb"),
            { QStringLiteral("-D"), m_dir.filePath(QStringLiteral("data")), QStringLiteral("-A"),
                QStringLiteral("trust"), QStringLiteral("-U"), QStringLiteral("lockscope"), QStringLiteral("-E"),
                QStringLiteral("UTF8"), QStringLiteral("--locale=C"), QStringLiteral("--no-sync"),
                QStringLiteral("--no-instructions") },
            error))
        return false;
    for (int attempt = 0; attempt < 3; ++attempt)
        if (launch(freeLoopbackPort(), error))
            return true;
    return false;
}

bool PostgresServer::restart(QString *error)
{
    stop();
    return launch(m_port, error);
}

bool PostgresServer::launch(quint16 port, QString *error)
{
    m_port = port;
    m_server = std::make_unique<QProcess>();
    asPostgres(*m_server, QStringLiteral("postgres"),
        { QStringLiteral("-D"), m_dir.filePath(QStringLiteral("data")), QStringLiteral("-p"), QString::number(m_port),
            QStringLiteral("-k"), m_dir.path(), QStringLiteral("-c"), QStringLiteral("listen_addresses=127.0.0.1"),
            QStringLiteral("-c"), QStringLiteral("fsync=off") });
    m_server->setStandardOutputFile(m_dir.filePath(QStringLiteral("postgres.log")), QIODevice::Append);
    m_server->setStandardErrorFile(m_dir.filePath(QStringLiteral("postgres.log")), QIODevice::Append);
    m_server->start();
    if (!m_server->waitForStarted(10000)) {
        *error = QStringLiteral("cannot start postgres: %1").arg(m_server->errorString());
        return false;
    }
    const QDeadlineTimer deadline(kReadyTimeoutMs);
    while (!deadline.hasExpired()) {
        // pg_isready connects, as a client would: 0 once connections are accepted.
        QProcess probe;
        probe.start(m_bin + QStringLiteral("/pg_isready"),
            { QStringLiteral("-q"), QStringLiteral("-h"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                QString::number(m_port), QStringLiteral("-U"), QStringLiteral("lockscope"), QStringLiteral("-d"),
                QStringLiteral("postgres"), QStringLiteral("-t"), QStringLiteral("5") });
        if (probe.waitForFinished(10000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
            return true;
        // Doubles as the pause between probes and notices an early exit (the port was taken) at once.
        if (m_server->waitForFinished(50) || m_server->state() == QProcess::NotRunning) {
            *error = QStringLiteral("postgres exited during start-up:\n%1").arg(log());
            m_server.reset();
            return false;
        }
    }
    *error
        = QStringLiteral("postgres on port %1 not ready after %2 ms:\n%3").arg(m_port).arg(kReadyTimeoutMs).arg(log());
    stop();
    return false;
}

void PostgresServer::stop()
{
    if (!m_server)
        return;
    if (m_server->state() != QProcess::NotRunning) {
        ::kill(pid_t(m_server->processId()), SIGINT);
        if (!m_server->waitForFinished(kStopGraceMs)) {
            m_server->kill();
            m_server->waitForFinished(kStopGraceMs);
        }
    }
    m_server.reset();
}

QString PostgresServer::url(const QString &database) const
{
    return QStringLiteral("postgresql://lockscope@127.0.0.1:%1/%2").arg(m_port).arg(database);
}

QString PostgresServer::createDatabase(QString *error)
{
    const QString name = QStringLiteral("lockscope_%1").arg(++m_databases);
    if (psql(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1").arg(name), error).isNull())
        return {};
    return name;
}

QByteArray PostgresServer::psql(const QString &database, const QString &sql, QString *error) const
{
    error->clear();
    QByteArray out;
    if (!run(QStringLiteral("psql"),
            { QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-At"), QStringLiteral("-v"),
                QStringLiteral("ON_ERROR_STOP=1"), QStringLiteral("-h"), QStringLiteral("127.0.0.1"),
                QStringLiteral("-p"), QString::number(m_port), QStringLiteral("-U"), QStringLiteral("lockscope"),
                QStringLiteral("-d"), database, QStringLiteral("-c"), sql },
            error, &out))
        return {};
    return out.isNull() ? QByteArray("") : out;
}

QString PostgresServer::log() const
{
    QFile f(m_dir.filePath(QStringLiteral("postgres.log")));
    return f.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(f.readAll()) : QString();
}

} // namespace LockScope::Test
