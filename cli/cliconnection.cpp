#include "cliconnection.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>
#include <iostream>
#include <string>

#include <termios.h>
#include <unistd.h>

namespace LockScope::Cli {

namespace {
// The context lupdate gives the tr() calls below (it takes this for the usual tr()): keep them equal, or the
// translations never match.
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Cli", text);
}
} // namespace

QList<QCommandLineOption> connectionOptions()
{
    return {
        { QStringLiteral("url"),
            tr("redis:// or rediss:// URL (default: $LOCKSCOPE_URL, else redis://127.0.0.1:6379/0)"),
            QStringLiteral("URL") },
        { QStringLiteral("profile"),
            tr("connect as the console's saved connection NAME says (its password from the keychain); the options "
               "that say where to connect (--url, --tls-*, --cluster, --sentinel, --ssh) then do not apply"),
            QStringLiteral("NAME") },
        { QStringLiteral("password-env"), tr("take the password from this environment variable"),
            QStringLiteral("VAR") },
        { QStringLiteral("password-stdin"), tr("read the password from the first line of standard input") },
        { QStringLiteral("tls-ca"), tr("CA certificate file (PEM)"), QStringLiteral("FILE") },
        { QStringLiteral("tls-cert"), tr("client certificate file (PEM)"), QStringLiteral("FILE") },
        { QStringLiteral("tls-key"), tr("client private key file (PEM)"), QStringLiteral("FILE") },
        { QStringLiteral("tls-server-name"), tr("name expected in the server certificate"), QStringLiteral("NAME") },
        { QStringLiteral("tls-insecure"), tr("do not verify the server certificate") },
        { QStringLiteral("read-only"), tr("refuse every write before it reaches the wire") },
        { QStringLiteral("connect-timeout"), tr("connect timeout in ms (default 5000)"), QStringLiteral("MS") },
        { QStringLiteral("cluster"), tr("treat the URL as a seed of a Redis Cluster (also detected automatically)") },
        { QStringLiteral("sentinel"), tr("find the master through these sentinels"),
            QStringLiteral("HOST:PORT[,...]") },
        { QStringLiteral("master"), tr("the master's name in Sentinel (with --sentinel)"), QStringLiteral("NAME") },
        { QStringLiteral("replica-reads"),
            tr("in a cluster, scan and read on each master's replica (list, show, watch); results are as old as the "
               "replication lag") },
        { QStringLiteral("publish-mode"),
            tr("how releases wake waiters: auto (sharded in a Redis 7 cluster, else plain), plain, sharded or both "
               "(for a fleet that mixes them)"),
            QStringLiteral("MODE") },
        { QStringLiteral("replica-sync-timeout"),
            tr("after a lock write on a master with replicas, wait this long for them to have it (WAIT; Redisson's "
               "slavesSyncTimeout; default 1000, 0: never wait)"),
            QStringLiteral("MS") },
        { QStringLiteral("no-replica-check"),
            tr("keep an acquire that no replica acknowledged in time (Redisson's checkLockSyncedSlaves false; by "
               "default it is undone and reported)") },
        { QStringLiteral("ssh"), tr("reach Redis (and every node or sentinel it names) through this SSH host"),
            QStringLiteral("USER@HOST[:PORT]") },
        { QStringLiteral("ssh-key"), tr("private key for --ssh (default: the agent, then ~/.ssh/id_*)"),
            QStringLiteral("FILE") },
        { QStringLiteral("ssh-known-hosts"),
            tr("known_hosts file to check the SSH host key against (default: "
               "~/.ssh/known_hosts)"),
            QStringLiteral("FILE") },
        { QStringLiteral("ssh-password-env"), tr("take the SSH password from this environment variable"),
            QStringLiteral("VAR") },
        { QStringLiteral("ssh-ask-password"), tr("ask for the SSH password on the terminal") },
        { QStringLiteral("ssh-accept-host-key"),
            tr("accept an SSH host key that is not in known_hosts if its fingerprint is this one (as shown by the "
               "refusal), and remember it"),
            QStringLiteral("SHA256:...") },
        { QStringLiteral("json"), tr("machine-readable output") },
    };
}

void addConnectionOptions(QCommandLineParser &parser)
{
    parser.addOptions(connectionOptions());
}

std::optional<QByteArray> readSecretFromTerminal(const QString &prompt)
{
    // The terminal itself, not standard input: that may carry the Redis password (--password-stdin) or a pipe.
    FILE *tty = std::fopen("/dev/tty", "r+");
    if (!tty)
        return std::nullopt;
    std::fputs(prompt.toLocal8Bit().constData(), tty);
    std::fflush(tty);
    termios saved {};
    const bool isTerminal = tcgetattr(fileno(tty), &saved) == 0;
    if (isTerminal) {
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        tcsetattr(fileno(tty), TCSAFLUSH, &quiet);
    }
    QByteArray line;
    for (int c = std::fgetc(tty); c != EOF && c != '\n'; c = std::fgetc(tty))
        line.append(char(c));
    if (isTerminal)
        tcsetattr(fileno(tty), TCSAFLUSH, &saved);
    std::fputs("\n", tty);
    std::fclose(tty);
    if (line.endsWith('\r'))
        line.chop(1);
    return line;
}

std::optional<bool> confirmHostKey(const SshHostKey &key, const SshOptions &ssh)
{
    FILE *tty = std::fopen("/dev/tty", "r+");
    if (!tty)
        return std::nullopt;
    const QString knownHosts = ssh.knownHostsFile.isEmpty() ? QStringLiteral("~/.ssh/known_hosts") : ssh.knownHostsFile;
    const QString text = tr("The SSH host %1 is not known (not in %2).\n"
                            "Its %3 key fingerprint is %4.\n"
                            "Accept this key and remember it? [y/N] ")
                             .arg(ssh.display(), knownHosts, key.keyType, QString::fromLatin1(key.fingerprint));
    std::fputs(text.toLocal8Bit().constData(), tty);
    std::fflush(tty);
    QByteArray line;
    for (int c = std::fgetc(tty); c != EOF && c != '\n'; c = std::fgetc(tty))
        line.append(char(c));
    std::fclose(tty);
    const QString answer = QString::fromLocal8Bit(line).trimmed().toLower();
    return answer == QLatin1String("y") || answer == QLatin1String("yes") || answer == tr("y") || answer == tr("yes");
}

namespace {
// --password-env and --ssh-password-env: the variable must be set (an empty password is a set one).
bool passwordFromEnvironment(
    const QCommandLineParser &parser, const QString &option, QByteArray *password, RedisError *error)
{
    if (!parser.isSet(option))
        return true;
    const QByteArray var = parser.value(option).toLocal8Bit();
    if (!qEnvironmentVariableIsSet(var.constData())) {
        *error = RedisError(RedisError::Kind::InvalidArgument,
            tr("environment variable %1 is not set").arg(QString::fromLocal8Bit(var)));
        return false;
    }
    *password = qgetenv(var.constData());
    return true;
}

bool sshFrom(const QCommandLineParser &parser, ConnectionOptions *options, RedisError *error)
{
    // A profile's SSH host is already in the options: only the answers that are the person's own (the password, a
    // host key accepted now) apply to it.
    const bool fromProfile = options->ssh.isSet();
    const bool wanted = parser.isSet(QStringLiteral("ssh")) || fromProfile;
    for (const char *option :
        { "ssh-key", "ssh-known-hosts", "ssh-password-env", "ssh-ask-password", "ssh-accept-host-key" }) {
        if (parser.isSet(QLatin1String(option)) && !wanted) {
            *error = RedisError(RedisError::Kind::InvalidArgument, tr("--%1 needs --ssh").arg(QLatin1String(option)));
            return false;
        }
    }
    if (!wanted)
        return true;
    SshOptions ssh = options->ssh;
    if (!fromProfile) {
        ssh = SshOptions::parseTarget(parser.value(QStringLiteral("ssh")), error);
        if (error->isError())
            return false;
        ssh.keyFile = parser.value(QStringLiteral("ssh-key"));
        ssh.knownHostsFile = parser.value(QStringLiteral("ssh-known-hosts"));
    }
    if (!ssh.keyFile.isEmpty() && !QFileInfo(ssh.keyFile).isReadable()) {
        *error = RedisError(RedisError::Kind::InvalidArgument, tr("cannot read the SSH key file %1").arg(ssh.keyFile));
        return false;
    }
    ssh.acceptHostKey = parser.value(QStringLiteral("ssh-accept-host-key")).toUtf8();
    if (!ssh.acceptHostKey.isEmpty() && !ssh.acceptHostKey.startsWith("SHA256:")) {
        *error = RedisError(RedisError::Kind::InvalidArgument,
            tr("--ssh-accept-host-key takes a fingerprint as SHA256:..., not \"%1\"")
                .arg(QString::fromUtf8(ssh.acceptHostKey)));
        return false;
    }
    if (!passwordFromEnvironment(parser, QStringLiteral("ssh-password-env"), &ssh.password, error))
        return false;
    if (parser.isSet(QStringLiteral("ssh-ask-password"))) {
        const auto password = readSecretFromTerminal(tr("SSH password for %1: ").arg(ssh.display()));
        if (!password) {
            *error = RedisError(RedisError::Kind::InvalidArgument, tr("--ssh-ask-password needs a terminal"));
            return false;
        }
        ssh.password = *password;
    }
    options->ssh = ssh;
    return true;
}
} // namespace

std::optional<ConnectionProfile> profileFrom(const QCommandLineParser &parser, RedisError *error)
{
    if (!parser.isSet(QStringLiteral("profile")))
        return std::nullopt;
    for (const char *option : { "url", "tls-ca", "tls-cert", "tls-key", "tls-server-name", "tls-insecure", "cluster",
             "sentinel", "master", "ssh", "ssh-key", "ssh-known-hosts" }) {
        if (parser.isSet(QLatin1String(option))) {
            *error = RedisError(RedisError::Kind::InvalidArgument,
                tr("--%1 and --profile both say where to connect: give one of them").arg(QLatin1String(option)));
            return std::nullopt;
        }
    }
    return findProfile(ConnectionProfile::loadConsoleProfiles(), parser.value(QStringLiteral("profile")), error);
}

ConnectionOptions connectionFrom(const QCommandLineParser &parser, RedisError *error, const ConnectionProfile *profile,
    const ProfileSecrets &secrets)
{
    ConnectionOptions options;
    if (profile) {
        options = profile->options(secrets.password, error, secrets.sshPassword);
    } else {
        QString url = parser.value(QStringLiteral("url"));
        if (url.isEmpty())
            url = qEnvironmentVariable("LOCKSCOPE_URL", QStringLiteral("redis://127.0.0.1:6379/0"));
        options = ConnectionOptions::fromUrl(url, error);
    }
    if (error && error->isError())
        return options;
    if (!passwordFromEnvironment(parser, QStringLiteral("password-env"), &options.password, error))
        return options;
    if (parser.isSet(QStringLiteral("password-stdin"))) {
        std::string line;
        std::getline(std::cin, line);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        options.password = QByteArray::fromStdString(line);
    }
    if (!profile) {
        options.tlsCaFile = parser.value(QStringLiteral("tls-ca"));
        options.tlsCertFile = parser.value(QStringLiteral("tls-cert"));
        options.tlsKeyFile = parser.value(QStringLiteral("tls-key"));
        options.tlsServerName = parser.value(QStringLiteral("tls-server-name"));
        options.tlsInsecure = parser.isSet(QStringLiteral("tls-insecure"));
    }
    // Every TLS option, not only the files: an ignored --tls-insecure or --tls-server-name would leave someone
    // believing they had configured TLS on a plain connection.
    for (const char *option : { "tls-ca", "tls-cert", "tls-key", "tls-server-name", "tls-insecure" }) {
        if (parser.isSet(QLatin1String(option)) && !options.tls) {
            *error = RedisError(
                RedisError::Kind::InvalidArgument, tr("--%1 needs a rediss:// URL").arg(QLatin1String(option)));
            return options;
        }
    }
    // A profile saved read-only stays so; --read-only makes any connection read-only.
    options.readOnly = options.readOnly || parser.isSet(QStringLiteral("read-only"));
    if (parser.isSet(QStringLiteral("connect-timeout"))) {
        bool ok = false;
        options.connectTimeoutMs = parser.value(QStringLiteral("connect-timeout")).toInt(&ok);
        // 0 would mean no timeout at all: a typo must not turn a 5 s timeout into a hang.
        if (!ok || options.connectTimeoutMs < 1) {
            *error = RedisError(RedisError::Kind::InvalidArgument,
                tr("--connect-timeout takes a number of ms from 1, not \"%1\"")
                    .arg(parser.value(QStringLiteral("connect-timeout"))));
            return options;
        }
    }
    if (parser.isSet(QStringLiteral("cluster")))
        options.topology = ConnectionOptions::Topology::Cluster;
    options.replicaReads = options.replicaReads || parser.isSet(QStringLiteral("replica-reads"));
    if (parser.isSet(QStringLiteral("sentinel")) != parser.isSet(QStringLiteral("master"))) {
        *error = RedisError(RedisError::Kind::InvalidArgument, tr("--sentinel and --master go together"));
        return options;
    }
    if (parser.isSet(QStringLiteral("sentinel"))) {
        if (parser.isSet(QStringLiteral("cluster"))) {
            *error = RedisError(RedisError::Kind::InvalidArgument, tr("--sentinel and --cluster exclude each other"));
            return options;
        }
        options.sentinels = ConnectionOptions::parseSentinels(parser.value(QStringLiteral("sentinel")), error);
        if (error && error->isError())
            return options;
        options.sentinelMaster = parser.value(QStringLiteral("master")).toUtf8();
    }
    if (parser.isSet(QStringLiteral("publish-mode"))
        && !ConnectionOptions::parsePublishMode(parser.value(QStringLiteral("publish-mode")), &options.publishMode)) {
        *error = RedisError(RedisError::Kind::InvalidArgument,
            tr("--publish-mode takes auto, plain, sharded or both, not \"%1\"")
                .arg(parser.value(QStringLiteral("publish-mode"))));
        return options;
    }
    if (parser.isSet(QStringLiteral("replica-sync-timeout"))) {
        bool ok = false;
        options.replicaSyncTimeoutMs = parser.value(QStringLiteral("replica-sync-timeout")).toInt(&ok);
        if (!ok || options.replicaSyncTimeoutMs < 0) {
            *error = RedisError(RedisError::Kind::InvalidArgument,
                tr("--replica-sync-timeout takes a number of ms from 0, not \"%1\"")
                    .arg(parser.value(QStringLiteral("replica-sync-timeout"))));
            return options;
        }
    }
    options.checkSyncedReplicas = options.checkSyncedReplicas && !parser.isSet(QStringLiteral("no-replica-check"));
    if (!sshFrom(parser, &options, error))
        return options;
    // A command-line tool reports a dead server at once instead of retrying behind the user's back.
    options.autoReconnect = false;
    return options;
}

} // namespace LockScope::Cli
