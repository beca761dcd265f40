#include "local/redisprobe.h"

#include <QDeadlineTimer>
#include <QHostAddress>
#include <QTcpSocket>
#include <QTimer>

namespace LockScope {

namespace {
const char pingCommand[] = "*1\r\n$4\r\nPING\r\n";

bool isReadyReply(const QByteArray &reply)
{
    return reply.startsWith("+PONG") || reply.startsWith("-NOAUTH");
}
} // namespace

bool RedisProbe::pingBlocking(quint16 port, int timeoutMs, QString *detail)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(timeoutMs)) {
        *detail = socket.errorString();
        return false;
    }
    socket.write(pingCommand);
    QByteArray reply;
    const QDeadlineTimer deadline(timeoutMs);
    while (!reply.contains('\n') && socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime()))))
        reply += socket.readAll();
    if (isReadyReply(reply))
        return true;
    *detail = reply.isEmpty() ? socket.errorString() : QString::fromUtf8(reply.trimmed());
    return false;
}

RedisProbe::RedisProbe(quint16 port, int timeoutMs, QObject *parent)
    : QObject(parent)
    , m_socket(new QTcpSocket(this))
    , m_timeout(new QTimer(this))
{
    connect(m_socket, &QTcpSocket::connected, this, [this] { m_socket->write(pingCommand); });
    connect(m_socket, &QTcpSocket::readyRead, this, [this] {
        m_reply += m_socket->readAll();
        if (m_reply.contains('\n'))
            finish(isReadyReply(m_reply), QString::fromUtf8(m_reply.trimmed()));
    });
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this] { finish(false, m_socket->errorString()); });
    m_timeout->setSingleShot(true);
    connect(m_timeout, &QTimer::timeout, this,
        [this, timeoutMs] { finish(false, tr("no reply within %1 ms").arg(timeoutMs)); });
    m_timeout->start(timeoutMs);
    m_socket->connectToHost(QHostAddress::LocalHost, port);
}

void RedisProbe::finish(bool ready, const QString &detail)
{
    if (m_done)
        return;
    m_done = true;
    m_timeout->stop();
    disconnect(m_socket, nullptr, this, nullptr);
    m_socket->abort();
    emit done(ready, detail);
}

} // namespace LockScope
