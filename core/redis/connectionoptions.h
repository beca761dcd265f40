#pragma once

#include "base/rediserror.h"
#include "ssh/sshoptions.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace LockScope {

// How lock releases wake waiters (docs/protocol/README.md#plain-and-sharded-publishing): PUBLISH, SPUBLISH
// (Redisson 3.22+ on a Redis 7 cluster), or both for a mixed fleet. Auto does what Redisson's default does: sharded in
// a cluster that supports it, else plain.
enum class PublishMode { Auto, Plain, Sharded, Both };

struct SentinelAddress
{
    QString host;
    quint16 port = 26379;
};

struct ConnectionOptions
{
    enum class Topology { Auto, Standalone, Cluster }; // Auto: a cluster when the server says it is one

    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QByteArray user; // empty: the default user
    QByteArray password; // never logged, never part of toDisplayUrl()
    int db = 0;

    bool tls = false;
    QString tlsCaFile;
    QString tlsCertFile;
    QString tlsKeyFile;
    QString tlsServerName; // SNI and name checked against the certificate; default: host
    bool tlsInsecure = false; // verification is on unless asked for

    int connectTimeoutMs = 5000;
    int commandTimeoutMs = 5000; // 0: no deadline
    int reconnectInitialDelayMs = 100;
    int reconnectMaxDelayMs = 5000;
    bool autoReconnect = true;

    // Refuse every write before it reaches the wire.
    bool readOnly = false;

    // Set: every connection (server, cluster nodes, sentinels, subscribers) goes through this SSH host, to the
    // address it names as that host sees it. TLS, if asked for, runs inside the tunnel, end to end with Redis.
    SshOptions ssh;

    Topology topology = Topology::Auto;
    // Sentinel: the master is looked up by name on these, and again after every failover.
    QList<SentinelAddress> sentinels;
    QByteArray sentinelMaster;
    QByteArray sentinelUser; // the sentinels' own credentials (often none)
    QByteArray sentinelPassword;
    PublishMode publishMode = PublishMode::Auto;
    // Redisson's slavesSyncTimeout: after a lock write on a master with replicas, WAIT this long for them to have it
    // (0: never wait). With checkSyncedReplicas (Redisson's checkLockSyncedSlaves), an acquire that no replica
    // acknowledged in time is undone and reported as an error.
    int replicaSyncTimeoutMs = 1000;
    bool checkSyncedReplicas = true;
    // A cluster monitor's reads (SCAN and the key reads) go to each master's replica where there is one, taking that
    // load off the masters; what it shows is then as old as the replication lag (RedisRouter::readReplicaLag).
    bool replicaReads = false;
    bool replicaConnection = false; // set by the router: the handshake sends READONLY

    bool usesSentinel() const { return !sentinels.isEmpty() && !sentinelMaster.isEmpty(); }
    // The same server settings (credentials, TLS, timeouts) for another node of the same deployment.
    ConnectionOptions forNode(const QString &nodeHost, quint16 nodePort) const;
    // "host:port,host:port" (port 26379 when left out).
    static QList<SentinelAddress> parseSentinels(const QString &text, RedisError *error = nullptr);
    static QByteArray publishModeName(PublishMode mode); // "auto", "plain", "sharded", "both"
    static bool parsePublishMode(const QString &text, PublishMode *mode);

    // Parses redis://[user[:password]@]host[:port][/db] and rediss://...; percent-encoded user and password.
    static ConnectionOptions fromUrl(const QString &url, RedisError *error = nullptr);
    // The URL with the password removed, for titles, logs and audit records.
    QString toDisplayUrl() const;
    // How the connection is made, for the connection bar: "direct", "via SSH user@bastion", with "TLS" where it
    // applies.
    QString routeDescription() const;
    // The display URL and, when tunnelled, the SSH host, in the person's language: what the console and the CLI say
    // they connect to.
    QString toDisplayTarget() const;
    // The same in English whatever the language: what audit records name as the server (their fields are read by
    // tools, and one log is written by people with different languages).
    QString auditTarget() const;
};

} // namespace LockScope
