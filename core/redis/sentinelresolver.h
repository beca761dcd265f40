#pragma once

#include "redis/connectionoptions.h"

#include <QObject>

#include <functional>

namespace LockScope {

class RedisConnection;
class RedisSubscriber;

// Finds the master that Sentinel knows by name: asks each sentinel in turn (the last one that answered first) with
// SENTINEL GET-MASTER-ADDR-BY-NAME, and listens for +switch-master so a failover is noticed at once rather than
// when the old master stops answering.
class SentinelResolver : public QObject
{
    Q_OBJECT
public:
    using Resolved = std::function<void(const QString &host, quint16 port, const RedisError &error)>;

    explicit SentinelResolver(ConnectionOptions options, QObject *parent = nullptr);

    void resolve(Resolved done);
    // Subscribes to +switch-master on one sentinel (once).
    void watch();

signals:
    void masterSwitched(const QString &host, quint16 port);

private:
    void ask(int attempt, Resolved done, QStringList failures);
    ConnectionOptions sentinelOptions(int index) const;

    ConnectionOptions m_options;
    int m_preferred = 0;
    RedisConnection *m_asking = nullptr;
    RedisSubscriber *m_watcher = nullptr;
};

} // namespace LockScope
