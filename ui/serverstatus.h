#pragma once

#include <QObject>
#include <QTimer>

namespace LockScope {

class RedisRouter;

// Server version (INFO server, once per connection), the topology (one server, the Sentinel master, or a cluster's
// masters, replicas and slot coverage) and the round-trip time of a PING every few seconds, for the status bar.
// Reads only, on the monitor's connection.
class ServerStatus : public QObject
{
    Q_OBJECT
public:
    explicit ServerStatus(RedisRouter *connection, QObject *parent = nullptr);

    QString version() const { return m_version; }
    double rttMs() const { return m_rttMs; }
    QString text() const;
    // Every node: each master with its slot ranges and replicas.
    QString details() const;

signals:
    void changed(const QString &text);

private:
    void ping();

    RedisRouter *m_connection;
    QTimer m_timer;
    QString m_version;
    double m_rttMs = -1;
    int m_replicaLag = -2; // -2: not reading from replicas; -1: a replica's link is down
    QString m_replicaDetail;
    bool m_inFlight = false;
};

} // namespace LockScope
