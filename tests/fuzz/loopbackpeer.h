#pragma once

#include "fuzzinput.h"
#include "redis/respcodec.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>

#include <memory>
#include <vector>

namespace LockScope::Fuzz {

// The server side: one listener on an ephemeral loopback port for the whole run. Each input's connections are
// accepted as they come (a command sent after a drop reconnects) and the newest one gets the bytes.
class LoopbackPeer
{
public:
    LoopbackPeer()
    {
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            violated("cannot listen on 127.0.0.1");
    }
    quint16 port() const { return m_server.serverPort(); }
    bool connected() const { return !m_links.empty(); }
    // Commands the client sent since the last reset(): whether something timer-driven (a poll) went out yet.
    int commandsSeen() const { return m_commands; }
    void reset()
    {
        m_links.clear();
        m_commands = 0;
    }

    void pump(int rounds = 3)
    {
        for (int i = 0; i < rounds; ++i) {
            QCoreApplication::processEvents();
            accept();
            checkClientBytes();
        }
    }
    template <typename Done> void pumpUntil(Done done, int maxMs)
    {
        QElapsedTimer timer;
        timer.start();
        while (!done() && timer.elapsed() < maxMs)
            pump(1);
    }
    // A short pump after each write lets the client read every chunk on its own, as a slow server would send it.
    void write(const QByteArray &bytes)
    {
        accept();
        if (m_links.empty() || m_links.back().socket->state() != QAbstractSocket::ConnectedState)
            return;
        m_links.back().socket->write(bytes);
        m_links.back().socket->flush();
        pump(2);
    }
    // The server goes away: every connection gets its FIN, and a few rounds let the client notice.
    void closeAll()
    {
        accept();
        for (Link &link : m_links)
            link.socket->close();
        pump(4);
    }

private:
    struct Link
    {
        std::unique_ptr<QTcpSocket> socket;
        std::unique_ptr<RespReader> sent = std::make_unique<RespReader>();
    };

    void accept()
    {
        while (m_server.hasPendingConnections()) {
            QTcpSocket *socket = m_server.nextPendingConnection();
            socket->setParent(nullptr);
            m_links.push_back({ std::unique_ptr<QTcpSocket>(socket) });
        }
    }
    // Whatever the server sent, the client only ever writes commands as formatCommand makes them.
    void checkClientBytes()
    {
        for (Link &link : m_links) {
            const QByteArray bytes = link.socket->readAll();
            link.sent->feed(bytes.constData(), bytes.size());
            for (;;) {
                RedisValue command;
                const auto status = link.sent->next(&command);
                if (status == RespReader::Status::NeedMore)
                    break;
                FUZZ_CHECK(status == RespReader::Status::Reply);
                FUZZ_CHECK(command.isArray() && command.size() > 0);
                for (const RedisValue &arg : command.elements())
                    FUZZ_CHECK(arg.isString());
                ++m_commands;
            }
        }
    }

    QTcpServer m_server;
    std::vector<Link> m_links;
    int m_commands = 0;
};

} // namespace LockScope::Fuzz
