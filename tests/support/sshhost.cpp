#include "sshhost.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QRandomGenerator>
#include <QThread>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace LockScope::Test {

namespace {
// Namespaces are named for the test process that made them (and a count, for several in one process); one whose
// process is gone was left by a crash.
const QString Prefix = QStringLiteral("lsssh");
// The links' subnet. Fixed, because no end is in a network anyone else uses: the SSH host's end is in its own
// namespace, and the test's end in the test process's own (joinOwnNetworkNamespace), so two tests running side by
// side cannot meet, and no address of the machine's is ever taken. TEST-NET-1 (RFC 5737): no real host has it. Each
// SshHost of one process has its own /30 of it.
const quint32 LinkBase = QHostAddress(QStringLiteral("192.0.2.0")).toIPv4Address();
constexpr int MaxHosts = 64;

void setError(QString *error, const QString &message)
{
    if (error)
        *error = message;
}

void sweepStaleNamespaces()
{
    QProcess list;
    list.start(QStringLiteral("ip"), { QStringLiteral("netns"), QStringLiteral("list") });
    list.waitForFinished(10000);
    for (const QByteArray &line : list.readAllStandardOutput().split('\n')) {
        const QString name = QString::fromLatin1(line.split(' ').value(0));
        if (!name.startsWith(Prefix))
            continue;
        const qint64 pid = name.mid(Prefix.size()).section(QLatin1Char('-'), 0, 0).toLongLong();
        if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
            QProcess::execute(QStringLiteral("ip"), { QStringLiteral("netns"), QStringLiteral("delete"), name });
    }
}

// Moves this process into a network namespace of its own, with only a loopback: the test's end of the link to the SSH
// host lives there, where nothing else does. A namespace belongs to a thread: called from the main thread, it holds
// for every thread and child process started from there afterwards (the SSH worker's thread, lockscope-cli).
bool joinOwnNetworkNamespace(QString *error)
{
    static bool joined = false;
    if (joined)
        return true;
    if (::unshare(CLONE_NEWNET) != 0) {
        setError(error, QStringLiteral("unshare(CLONE_NEWNET): %1").arg(QString::fromLocal8Bit(strerror(errno))));
        return false;
    }
    joined = true;
    if (QProcess::execute(QStringLiteral("ip"),
            { QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("lo"), QStringLiteral("up") })
        != 0) {
        setError(error, QStringLiteral("ip link set lo up failed in the test's own network namespace"));
        return false;
    }
    return true;
}
} // namespace

SshHost::SshHost()
{
    static int made = 0;
    m_ns = Prefix + QString::number(QCoreApplication::applicationPid()) + QLatin1Char('-') + QString::number(++made);
    m_hostIf = QStringLiteral("lsh%1").arg(made);
    const quint32 subnet = LinkBase + quint32((made - 1) % MaxHosts) * 4;
    m_hostAddress = QHostAddress(subnet + 1).toString();
    m_nsAddress = QHostAddress(subnet + 2).toString();
    // A namespace this test just made has nothing listening, but its connections (sshd's forwards, the cluster's
    // bus links) take ephemeral source ports from 32768 up, and a cluster node also binds its port + 10000: ports
    // from 10000 to 22000 keep both below that range (one drawn inside it failed a node's bind in CI). A random
    // start keeps runs from looking alike.
    m_nextPort = quint16(10000 + QRandomGenerator::global()->bounded(12000));
}

SshHost::~SshHost()
{
    killSshd();
    for (auto &p : m_redis) {
        p->kill();
        p->waitForFinished(5000);
    }
    if (m_nsMade) {
        // Anything still in the namespace (a session sshd forked) goes with it.
        QProcess pids;
        pids.start(QStringLiteral("ip"), { QStringLiteral("netns"), QStringLiteral("pids"), m_ns });
        pids.waitForFinished(10000);
        for (const QByteArray &pid : pids.readAllStandardOutput().split('\n'))
            if (pid.toLongLong() > 0)
                ::kill(pid_t(pid.toLongLong()), SIGKILL);
        QProcess::execute(QStringLiteral("ip"), { QStringLiteral("netns"), QStringLiteral("delete"), m_ns });
    }
}

bool SshHost::run(const QStringList &command, QString *error, QByteArray *output) const
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(command.first(), command.mid(1));
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        setError(error,
            QStringLiteral("%1 failed: %2")
                .arg(command.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAll()) + p.errorString()));
        return false;
    }
    if (output)
        *output = p.readAll();
    return true;
}

QProcess *SshHost::spawnInNamespace(const QStringList &command, const QString &logFile)
{
    auto *p = new QProcess;
    p->setProgram(QStringLiteral("ip"));
    p->setArguments(QStringList { QStringLiteral("netns"), QStringLiteral("exec"), m_ns } + command);
    p->setStandardInputFile(QProcess::nullDevice());
    p->setStandardOutputFile(logFile, QIODevice::Append);
    p->setStandardErrorFile(logFile, QIODevice::Append);
    // The child dies with the test, even when the test crashes.
    p->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    p->start();
    return p;
}

bool SshHost::start(QString *error)
{
    if (!m_dir.isValid()) {
        setError(error, QStringLiteral("no temporary directory"));
        return false;
    }
    if (::geteuid() != 0) {
        setError(error, QStringLiteral("the SSH tests make a network namespace (ip netns): they need root"));
        return false;
    }
    for (const char *tool : { "/usr/sbin/sshd", "/usr/bin/ssh-keygen", "/usr/sbin/ip" }) {
        if (!QFile::exists(QLatin1String(tool))) {
            setError(error, QStringLiteral("%1 is missing (openssh-server, openssh-client, iproute2)").arg(tool));
            return false;
        }
    }
    sweepStaleNamespaces();
    if (!joinOwnNetworkNamespace(error))
        return false;
    QDir().mkpath(QStringLiteral("/run/sshd")); // sshd's privilege-separation directory
    const QStringList steps[] = {
        { QStringLiteral("ip"), QStringLiteral("netns"), QStringLiteral("add"), m_ns },
        { QStringLiteral("ip"), QStringLiteral("link"), QStringLiteral("add"), m_hostIf, QStringLiteral("type"),
            QStringLiteral("veth"), QStringLiteral("peer"), QStringLiteral("name"), QStringLiteral("eth0"),
            QStringLiteral("netns"), m_ns },
        { QStringLiteral("ip"), QStringLiteral("addr"), QStringLiteral("add"), m_hostAddress + QStringLiteral("/30"),
            QStringLiteral("dev"), m_hostIf },
        { QStringLiteral("ip"), QStringLiteral("link"), QStringLiteral("set"), m_hostIf, QStringLiteral("up") },
        { QStringLiteral("ip"), QStringLiteral("-n"), m_ns, QStringLiteral("addr"), QStringLiteral("add"),
            m_nsAddress + QStringLiteral("/30"), QStringLiteral("dev"), QStringLiteral("eth0") },
        { QStringLiteral("ip"), QStringLiteral("-n"), m_ns, QStringLiteral("link"), QStringLiteral("set"),
            QStringLiteral("eth0"), QStringLiteral("up") },
        { QStringLiteral("ip"), QStringLiteral("-n"), m_ns, QStringLiteral("link"), QStringLiteral("set"),
            QStringLiteral("lo"), QStringLiteral("up") },
    };
    for (const QStringList &step : steps) {
        if (!run(step, error))
            return false;
        m_nsMade = true;
    }
    const QString d = m_dir.path() + QLatin1Char('/');
    for (const QString &key : { QStringLiteral("hostkey"), QStringLiteral("otherhostkey"), QStringLiteral("clientkey"),
             QStringLiteral("otherkey") }) {
        if (!run({ QStringLiteral("ssh-keygen"), QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                     QStringLiteral("-N"), QString(), QStringLiteral("-C"), key, QStringLiteral("-f"), d + key },
                error))
            return false;
    }
    QFile::copy(d + QStringLiteral("clientkey.pub"), d + QStringLiteral("authorized_keys"));
    m_sshPort = m_nextPort++;
    // Password logins check root's password in /etc/shadow (UsePAM no). sshd sees a copy of it with a password of the
    // test's own, mounted over the real one in a mount namespace that only sshd has: the machine's is never touched.
    QByteArray hash;
    if (!run({ QStringLiteral("openssl"), QStringLiteral("passwd"), QStringLiteral("-6"), password() }, error, &hash))
        return false;
    QFile systemShadow(QStringLiteral("/etc/shadow"));
    QByteArray shadow = systemShadow.open(QIODevice::ReadOnly) ? systemShadow.readAll() : QByteArray();
    QList<QByteArray> lines = shadow.split('\n');
    bool replaced = false;
    for (QByteArray &line : lines) {
        if (line.startsWith("root:")) {
            QList<QByteArray> fields = line.split(':');
            fields[1] = hash.trimmed();
            line = fields.join(':');
            replaced = true;
        }
    }
    if (!replaced)
        lines.prepend("root:" + hash.trimmed() + ":19000:0:99999:7:::");
    QFile ownShadow(d + QStringLiteral("shadow"));
    if (!ownShadow.open(QIODevice::WriteOnly) || ownShadow.write(lines.join('\n')) < 0) {
        setError(error, QStringLiteral("cannot write %1").arg(ownShadow.fileName()));
        return false;
    }
    ownShadow.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    ownShadow.close();
    return startSshd(error);
}

bool SshHost::startSshd(QString *error, HostKey hostKey)
{
    const QString d = m_dir.path() + QLatin1Char('/');
    QFile config(d + QStringLiteral("sshd_config"));
    if (!config.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        setError(error, QStringLiteral("cannot write %1").arg(config.fileName()));
        return false;
    }
    config.write(QStringLiteral("ListenAddress %1:%2\n"
                                "HostKey %3\n"
                                "AuthorizedKeysFile %4authorized_keys\n"
                                "StrictModes no\n"
                                "UsePAM no\n"
                                "PasswordAuthentication yes\n"
                                "KbdInteractiveAuthentication no\n"
                                "PermitRootLogin yes\n"
                                "AllowTcpForwarding yes\n"
                                "PidFile none\n")
                     .arg(m_nsAddress)
                     .arg(m_sshPort)
                     .arg(hostKey == HostKey::Other ? otherHostKeyFile() : hostKeyFile(), d)
                     .toUtf8());
    config.close();
    const QString sshd
        = QStringLiteral("mount --bind '%1shadow' /etc/shadow && exec /usr/sbin/sshd -D -f '%1sshd_config' "
                         "-E '%1sshd.log'")
              .arg(d);
    m_sshd.reset(
        spawnInNamespace({ QStringLiteral("unshare"), QStringLiteral("--mount"), QStringLiteral("--propagation"),
                             QStringLiteral("private"), QStringLiteral("sh"), QStringLiteral("-c"), sshd },
            d + QStringLiteral("sshd.out")));
    // Up when its log says it listens (sshd -D writes that once the socket is bound).
    const QDeadlineTimer deadline(15000);
    const QByteArray listening
        = QStringLiteral("Server listening on %1 port %2").arg(m_nsAddress).arg(m_sshPort).toUtf8();
    while (!deadline.hasExpired()) {
        // Each start appends to the same log: up when it says "listening" once more than before.
        QFile log(d + QStringLiteral("sshd.log"));
        const int starts = log.open(QIODevice::ReadOnly) ? int(log.readAll().count(listening)) : 0;
        if (starts > m_sshdStarts) {
            m_sshdStarts = starts;
            return true;
        }
        if (m_sshd->state() == QProcess::NotRunning) {
            setError(error, QStringLiteral("sshd exited: %1").arg(sshdLog()));
            return false;
        }
        QThread::msleep(20); // a fixture's readiness poll against a deadline, not a test's synchronisation
    }
    setError(error, QStringLiteral("sshd did not start listening: %1").arg(sshdLog()));
    return false;
}

void SshHost::killSshd()
{
    if (!m_nsMade)
        return;
    // The listener and the per-connection sessions it forked: all sshd processes in the namespace.
    QProcess pids;
    pids.start(QStringLiteral("ip"), { QStringLiteral("netns"), QStringLiteral("pids"), m_ns });
    pids.waitForFinished(10000);
    for (const QByteArray &line : pids.readAllStandardOutput().split('\n')) {
        const qint64 pid = line.trimmed().toLongLong();
        if (pid <= 0)
            continue;
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == "sshd")
            ::kill(pid_t(pid), SIGKILL);
    }
    if (m_sshd) {
        m_sshd->waitForFinished(5000);
        m_sshd.reset();
    }
}

quint16 SshHost::startRedis(const QStringList &extraArgs, QString *error)
{
    return startServer(extraArgs, {}, error);
}

quint16 SshHost::startServer(const QStringList &args, const QStringList &pingArgs, QString *error)
{
    const quint16 port = m_nextPort++;
    const QString d = m_dir.path() + QStringLiteral("/redis-%1").arg(port);
    QDir().mkpath(d);
    const bool tls = args.contains(QStringLiteral("--tls-port"));
    QStringList command { QStringLiteral("redis-server") };
    // A config file (Sentinel rewrites its own) comes first; then the port, where this server listens.
    if (!args.isEmpty() && args.first().endsWith(QStringLiteral(".conf")))
        command << args.first();
    command << QStringLiteral("--port") << (tls ? QStringLiteral("0") : QString::number(port))
            << QStringLiteral("--bind") << QStringLiteral("127.0.0.1") << QStringLiteral("--save") << QString()
            << QStringLiteral("--appendonly") << QStringLiteral("no") << QStringLiteral("--daemonize")
            << QStringLiteral("no") << QStringLiteral("--dir") << d;
    for (const QString &arg : args.mid(!args.isEmpty() && args.first().endsWith(QStringLiteral(".conf")) ? 1 : 0))
        command << (arg == QStringLiteral("TLSPORT") ? QString::number(port) : arg);
    std::unique_ptr<QProcess> p(spawnInNamespace(command, d + QStringLiteral("/log")));
    const QDeadlineTimer deadline(15000);
    while (!deadline.hasExpired()) {
        if (redisCli(port, pingArgs + QStringList { QStringLiteral("PING") }) == "PONG") {
            m_redis.push_back(std::move(p));
            return port;
        }
        if (p->state() == QProcess::NotRunning)
            break;
        QThread::msleep(20); // a fixture's readiness poll against a deadline, not a test's synchronisation
    }
    QFile log(d + QStringLiteral("/log"));
    log.open(QIODevice::ReadOnly);
    setError(error,
        QStringLiteral("redis-server in the namespace did not start: %1").arg(QString::fromLocal8Bit(log.readAll())));
    return 0;
}

quint16 SshHost::startSentinel(quint16 masterPort, const QString &masterName, QString *error)
{
    const QString config = m_dir.filePath(QStringLiteral("sentinel-%1.conf").arg(masterPort));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        setError(error, QStringLiteral("cannot write %1").arg(config));
        return 0;
    }
    file.write(QStringLiteral("sentinel monitor %1 127.0.0.1 %2 1\n").arg(masterName).arg(masterPort).toUtf8());
    file.close();
    return startServer({ config, QStringLiteral("--sentinel") }, {}, error);
}

quint16 SshHost::startTlsRedis(QString *error)
{
    const QString d = m_dir.path() + QLatin1Char('/');
    QFile ext(d + QStringLiteral("server.ext"));
    ext.open(QIODevice::WriteOnly);
    ext.write("subjectAltName = DNS:localhost, IP:127.0.0.1\nextendedKeyUsage = serverAuth\n");
    ext.close();
    const QStringList ec { QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
        QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes") };
    if (!run(QStringList { QStringLiteral("openssl"), QStringLiteral("req"), QStringLiteral("-x509") } + ec
                + QStringList { QStringLiteral("-keyout"), d + QStringLiteral("ca.key"), QStringLiteral("-out"),
                    d + QStringLiteral("ca.pem"), QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                    QStringLiteral("/CN=lockscope-test-ca"), QStringLiteral("-addext"),
                    QStringLiteral("basicConstraints=critical,CA:TRUE"), QStringLiteral("-addext"),
                    QStringLiteral("keyUsage=critical,keyCertSign,cRLSign") },
            error)
        || !run(QStringList { QStringLiteral("openssl"), QStringLiteral("req") } + ec
                + QStringList { QStringLiteral("-keyout"), d + QStringLiteral("server.key"), QStringLiteral("-out"),
                    d + QStringLiteral("server.csr"), QStringLiteral("-subj"), QStringLiteral("/CN=localhost") },
            error)
        || !run({ QStringLiteral("openssl"), QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                    d + QStringLiteral("server.csr"), QStringLiteral("-CA"), d + QStringLiteral("ca.pem"),
                    QStringLiteral("-CAkey"), d + QStringLiteral("ca.key"), QStringLiteral("-CAcreateserial"),
                    QStringLiteral("-out"), d + QStringLiteral("server.pem"), QStringLiteral("-days"),
                    QStringLiteral("2"), QStringLiteral("-extfile"), d + QStringLiteral("server.ext") },
            error))
        return 0;
    return startServer({ QStringLiteral("--tls-port"), QStringLiteral("TLSPORT"), QStringLiteral("--tls-cert-file"),
                           d + QStringLiteral("server.pem"), QStringLiteral("--tls-key-file"),
                           d + QStringLiteral("server.key"), QStringLiteral("--tls-ca-cert-file"),
                           d + QStringLiteral("ca.pem"), QStringLiteral("--tls-auth-clients"), QStringLiteral("no") },
        { QStringLiteral("--tls"), QStringLiteral("--cacert"), d + QStringLiteral("ca.pem") }, error);
}

QByteArray SshHost::redisCli(quint16 port, const QStringList &args, bool cluster) const
{
    QProcess p;
    p.start(QStringLiteral("ip"),
        QStringList { QStringLiteral("netns"), QStringLiteral("exec"), m_ns, QStringLiteral("redis-cli"),
            QStringLiteral("-p"), QString::number(port) }
            + (cluster ? QStringList { QStringLiteral("-c") } : QStringList {}) + args);
    p.waitForFinished(15000);
    return p.readAllStandardOutput().trimmed();
}

QList<quint16> SshHost::startCluster(int masters, QString *error)
{
    QList<quint16> ports;
    QStringList create { QStringLiteral("ip"), QStringLiteral("netns"), QStringLiteral("exec"), m_ns,
        QStringLiteral("redis-cli"), QStringLiteral("--cluster"), QStringLiteral("create") };
    for (int i = 0; i < masters; ++i) {
        const quint16 port = startRedis({ QStringLiteral("--cluster-enabled"), QStringLiteral("yes"),
                                            QStringLiteral("--cluster-config-file"), QStringLiteral("nodes.conf") },
            error);
        if (!port)
            return {};
        ports << port;
        create << QStringLiteral("127.0.0.1:%1").arg(port);
    }
    create << QStringLiteral("--cluster-replicas") << QStringLiteral("0") << QStringLiteral("--cluster-yes");
    if (!run(create, error))
        return {};
    const QDeadlineTimer deadline(30000);
    for (const quint16 port : ports) {
        while (!redisCli(port, { QStringLiteral("CLUSTER"), QStringLiteral("INFO") }).contains("cluster_state:ok")) {
            if (deadline.hasExpired()) {
                setError(error, QStringLiteral("the cluster in the namespace did not become ready"));
                return {};
            }
            QThread::msleep(50); // a fixture's readiness poll against a deadline, not a test's synchronisation
        }
    }
    return ports;
}

QString SshHost::sshTarget() const
{
    return QStringLiteral("root@%1:%2").arg(m_nsAddress).arg(m_sshPort);
}

QString SshHost::clientKey() const
{
    return m_dir.filePath(QStringLiteral("clientkey"));
}

QString SshHost::otherKey() const
{
    return m_dir.filePath(QStringLiteral("otherkey"));
}

QString SshHost::hostKeyFile() const
{
    return m_dir.filePath(QStringLiteral("hostkey"));
}

QString SshHost::otherHostKeyFile() const
{
    return m_dir.filePath(QStringLiteral("otherhostkey"));
}

QString SshHost::hostFingerprint() const
{
    QByteArray out;
    run({ QStringLiteral("ssh-keygen"), QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"),
            QStringLiteral("-f"), hostKeyFile() + QStringLiteral(".pub") },
        nullptr, &out);
    return QString::fromLatin1(out.split(' ').value(1));
}

QByteArray SshHost::knownHostsLine(const QString &publicKeyFile) const
{
    QFile key(publicKeyFile);
    key.open(QIODevice::ReadOnly);
    const QList<QByteArray> parts = key.readAll().trimmed().split(' ');
    return QStringLiteral("[%1]:%2 ").arg(m_nsAddress).arg(m_sshPort).toUtf8() + parts.value(0) + ' ' + parts.value(1)
        + '\n';
}

QString SshHost::sshdLog() const
{
    QFile log(m_dir.filePath(QStringLiteral("sshd.log")));
    log.open(QIODevice::ReadOnly);
    return QString::fromLocal8Bit(log.readAll());
}

} // namespace LockScope::Test
