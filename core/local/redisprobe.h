#pragma once

#include <QObject>
#include <QString>

class QTcpSocket;
class QTimer;

namespace LockScope {

// Whether a redis-server on a loopback port serves yet: one PING, answered with PONG or NOAUTH (a password
// that came in through extra arguments still proves the server is up). Deliberately not RedisConnection:
// this must not retry, reconnect or authenticate.
class RedisProbe : public QObject
{
    Q_OBJECT
public:
    // Blocking, for callers without an event loop; *detail says why not when it returns false.
    static bool pingBlocking(quint16 port, int timeoutMs, QString *detail);

    // One asynchronous attempt that starts at once and reports through done(), exactly once.
    RedisProbe(quint16 port, int timeoutMs, QObject *parent = nullptr);

signals:
    void done(bool ready, const QString &detail);

private:
    void finish(bool ready, const QString &detail);

    QTcpSocket *m_socket;
    QTimer *m_timeout;
    QByteArray m_reply;
    bool m_done = false;
};

} // namespace LockScope
