#pragma once

#include <QObject>
#include <QTimer>

namespace LockScope {

class RedisConnection;

// Server version (INFO server, once per connection) and the round-trip time of a PING every few seconds, for the
// status bar. Reads only, on the monitor's connection.
class ServerStatus : public QObject
{
    Q_OBJECT
public:
    explicit ServerStatus(RedisConnection *connection, QObject *parent = nullptr);

    QString version() const { return m_version; }
    double rttMs() const { return m_rttMs; }
    QString text() const;

signals:
    void changed(const QString &text);

private:
    void ping();

    RedisConnection *m_connection;
    QTimer m_timer;
    QString m_version;
    double m_rttMs = -1;
    bool m_inFlight = false;
};

} // namespace LockScope
