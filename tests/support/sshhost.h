#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <vector>

namespace LockScope::Test {

// A host the test cannot reach except through SSH: a network namespace of the test's own, joined by a veth pair to
// another of the test's own, the one the test process itself moves into on start(); a real sshd (its own host key,
// the test's authorized key) listens on the SSH host's veth address, and redis-servers are bound to its own loopback.
// A client here sees only sshd; Redis is reached through the tunnel, at 127.0.0.1 as the SSH host sees it. No address
// is taken from the machine's network (and none from the process id): both ends are in namespaces nobody else uses,
// so tests running side by side cannot collide. Needs root (ip netns, unshare), as CI has.
//
// start() moves the whole test process into its private network namespace: call it before any other connection, and
// run everything the test talks to (servers, tools) from the test process after that, or inside the SSH host.
class SshHost
{
public:
    SshHost();
    ~SshHost();
    SshHost(const SshHost &) = delete;
    SshHost &operator=(const SshHost &) = delete;

    // The namespace, its link, the keys and sshd; false with the reason.
    bool start(QString *error);
    enum class HostKey { Own, Other };
    // sshd again (after killSshd()), on the same address and port, with its own host key or with the other one (a
    // server that was given a new key, or one that pretends to be it).
    bool startSshd(QString *error, HostKey hostKey = HostKey::Own);
    // SIGKILL to sshd and every session it forked: the tunnel's TCP connection ends at once.
    void killSshd();
    bool isSshdRunning() const { return m_sshd && m_sshd->state() != QProcess::NotRunning; }

    // A redis-server on the namespace's loopback; returns its port (0 on failure, with the reason).
    quint16 startRedis(const QStringList &extraArgs, QString *error);
    // redis-cli inside the namespace (its loopback), one command; the reply as redis-cli prints it, trimmed.
    // cluster: redis-cli -c, following redirections to the node that serves the key.
    QByteArray redisCli(quint16 port, const QStringList &args, bool cluster = false) const;
    // Three masters, no replicas, joined into a cluster inside the namespace; their ports.
    QList<quint16> startCluster(int masters, QString *error);

    // A Sentinel on the namespace's loopback watching the master at masterPort as masterName; its port.
    quint16 startSentinel(quint16 masterPort, const QString &masterName, QString *error);
    // A redis-server with TLS only (no plain port) on the namespace's loopback, its certificate for 127.0.0.1 and
    // localhost signed by tlsCaFile(); its port.
    quint16 startTlsRedis(QString *error);
    QString tlsCaFile() const { return m_dir.filePath(QStringLiteral("ca.pem")); }

    QString sshAddress() const { return m_nsAddress; } // the namespace's veth address, where sshd listens
    quint16 sshPort() const { return m_sshPort; }
    QString sshTarget() const; // root@ADDRESS:PORT
    QString clientKey() const; // the key sshd authorizes
    // root's password as this sshd checks it (its own copy of /etc/shadow, in sshd's own mount namespace).
    static QString password() { return QStringLiteral("lockscope-test-password"); }
    QString otherKey() const; // a key it does not
    QString hostKeyFile() const; // sshd's private host key (the public one beside it, .pub)
    QString otherHostKeyFile() const; // another host key: the "changed" one
    QString hostFingerprint() const; // SHA256:..., as ssh-keygen -l prints it
    // A known_hosts line for the SSH address holding this public key file's key.
    QByteArray knownHostsLine(const QString &publicKeyFile) const;
    QString dir() const { return m_dir.path(); }
    QString netns() const { return m_ns; } // for ip netns exec
    QString sshdLog() const;

private:
    bool run(const QStringList &command, QString *error, QByteArray *output = nullptr) const;
    QProcess *spawnInNamespace(const QStringList &command, const QString &logFile);
    quint16 startServer(const QStringList &args, const QStringList &pingArgs, QString *error);

    QTemporaryDir m_dir;
    QString m_ns;
    QString m_hostIf;
    QString m_hostAddress;
    QString m_nsAddress;
    quint16 m_sshPort = 0;
    quint16 m_nextPort = 0;
    bool m_nsMade = false;
    int m_sshdStarts = 0;
    std::unique_ptr<QProcess> m_sshd;
    std::vector<std::unique_ptr<QProcess>> m_redis;
};

} // namespace LockScope::Test
