#pragma once

// A webhook of the test's own on a loopback port, for the notifications of the CLI and the console (tst_notify,
// tst_consoleproduction). Include only from test executables.
#include <QTcpServer>
#include <QTcpSocket>

#include <memory>

namespace LockScope::Test {

// A webhook: answers every request 200 and keeps each body.
class Hook : public QObject
{
public:
    Hook()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                connect(s, &QTcpSocket::readyRead, s, [this, s, buffer] {
                    *buffer += s->readAll();
                    const int end = buffer->indexOf("\r\n\r\n");
                    if (end < 0)
                        return;
                    const QByteArray head = buffer->left(end).toLower();
                    const int at = head.indexOf("content-length:");
                    const int length
                        = at < 0 ? 0 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toInt();
                    if (buffer->size() < end + 4 + length)
                        return;
                    requests << qMakePair(buffer->left(buffer->indexOf("\r\n")), buffer->mid(end + 4, length));
                    s->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                    s->disconnectFromHost();
                });
            }
        });
    }
    QString url() const
    {
        return QStringLiteral("http://127.0.0.1:%1/hooks/T000/B000/secret").arg(m_server.serverPort());
    }
    QList<QPair<QByteArray, QByteArray>> requests; // request line, body

private:
    QTcpServer m_server;
};

} // namespace LockScope::Test
