#pragma once

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace LockScope {
class LocalRedisServer;
}

namespace LockScope::Test {

struct RedisServerOptions
{
    QStringList extraArgs;
    // Adds a TLS listener next to the plain one; the plain port stays available for RawRedis checks.
    bool tls = false;
    // Whether the TLS listener demands a client certificate signed by caFile().
    bool tlsAuthClients = false;
    QString requirePass {};
    // A Redis Cluster node (its bus on a port picked with the main one); RedisCluster joins them up.
    bool cluster = false;
    // A config file's contents (Sentinel's "sentinel monitor ..." lines); started with --sentinel in extraArgs.
    QByteArray configText {};
};

// A throwaway redis-server owned by one test: its own loopback port, its own directory, no persistence.
// The process itself is a LocalRedisServer; this adds what only tests need (TLS certificates, a password).
// Not copyable: the child process and the temporary directory have exactly one owner.
class RedisServer
{
public:
    explicit RedisServer(RedisServerOptions options = {});
    ~RedisServer();
    RedisServer(const RedisServer &) = delete;
    RedisServer &operator=(const RedisServer &) = delete;

    // Blocks until the server answers PING (at most 10 s). After stop() or killHard() it first tries
    // the previous ports again so that clients can reconnect to the same address. Call it from a thread that
    // outlives the server: the parent-death signal fires when the starting thread exits.
    bool start(QString *error = nullptr);
    // SIGTERM, then SIGKILL if the server has not exited within 5 s.
    void stop();
    // SIGKILL: simulates a crash, no goodbye on open connections.
    void killHard();
    bool isRunning() const;
    qint64 pid() const;

    QString host() const { return QStringLiteral("127.0.0.1"); }
    quint16 port() const;
    quint16 tlsPort() const;
    // Never contains the password: pass password() separately so it does not end up in logs.
    QString url() const;
    // Uses "localhost" so that certificate host name verification is exercised.
    QString tlsUrl() const;
    QString password() const { return m_options.requirePass; }
    const RedisServerOptions &options() const { return m_options; }

    QString caFile() const;
    QString serverCertFile() const;
    QString serverKeyFile() const;
    QString clientCertFile() const;
    QString clientKeyFile() const;
    // A CA that signed none of the above; trusting it alone must make a TLS handshake fail.
    QString rogueCaFile() const;
    // Signed by the rogue CA (serverAuth and clientAuth): a client certificate the server must refuse.
    QString rogueCertFile() const;
    QString rogueKeyFile() const;

    QString dir() const;
    // Everything the child wrote to stdout and stderr, across restarts; for failure messages.
    QString serverLog() const;

private:
    QStringList serverArgs(const QList<quint16> &extraPorts) const;
    bool ensureCertificates(QString *error);
    bool runOpenssl(const QStringList &args, QString *error);
    bool writeFile(const QString &name, const QByteArray &contents, QString *error);
    QString filePath(const QString &name) const;

    RedisServerOptions m_options;
    std::unique_ptr<LocalRedisServer> m_server;
    bool m_certificatesReady = false;
};

} // namespace LockScope::Test
