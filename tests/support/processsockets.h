#pragma once

#include "rawredis.h"

#include <QByteArrayList>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <sys/types.h>
#include <unistd.h>

namespace LockScope::Test {

// The local TCP ports of a live process's sockets (IPv4 and IPv6), from /proc: its file descriptors name socket
// inodes, /proc/net/tcp* names each inode's local address. What the server's CLIENT LIST and MONITOR call a
// connection's addr is 127.0.0.1:<that port>, so a test can tell the process's commands from everyone else's on the
// server's side, without asking the process (which may be killed or frozen).
inline QSet<quint16> processTcpPorts(pid_t pid)
{
    QSet<QByteArray> inodes;
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    for (const QFileInfo &fd : fds.entryInfoList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)) {
        const QString target = fd.symLinkTarget().section(QLatin1Char('/'), -1);
        if (target.startsWith(QLatin1String("socket:[")))
            inodes.insert(target.mid(8, target.size() - 9).toLatin1());
    }
    QSet<quint16> ports;
    for (const char *table : { "/proc/net/tcp", "/proc/net/tcp6" }) {
        QFile file(QString::fromLatin1(table));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        file.readLine(); // the header
        while (!file.atEnd()) {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
            const QByteArrayList f = file.readLine().simplified().split(' ');
            if (f.size() > 9 && inodes.contains(f.at(9)))
                ports.insert(quint16(f.at(1).mid(f.at(1).lastIndexOf(':') + 1).toUInt(nullptr, 16)));
        }
    }
    return ports;
}

// The sockets a child process of the test opened itself: a child started by the test inherits the test's raw
// connections (hiredis opens them without close-on-exec), and those are the test's, not the child's.
inline QSet<quint16> childTcpPorts(pid_t child)
{
    return processTcpPorts(child) - processTcpPorts(::getpid());
}

// The server's own account of who sent what: a MONITOR connection opened before a scenario, marks the test drops
// into it (ECHO from a connection of its own) when something happens, and the lines read back afterwards in the
// server's order. A command a process wrote before a mark is run before the mark: the server reads its ready sockets
// in the order their data arrived.
class ServerCommandLog
{
public:
    explicit ServerCommandLog(quint16 port)
        : m_monitor(port)
        , m_marks(port)
    {
        m_monitor.append({ "MONITOR" });
        m_started = m_monitor.readReply(5000).bytes() == "OK";
    }

    bool started() const { return m_started; }

    void mark(const QByteArray &name) { m_marks.command({ "ECHO", "lockscope-test-mark:" + name }); }

    // Every line up to the mark `end` (dropped here), each as {port of the sender, the line}; marks show as port 0.
    QList<QPair<quint16, QByteArray>> readUntil(const QByteArray &end)
    {
        mark(end);
        QList<QPair<quint16, QByteArray>> lines;
        const QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            bool timedOut = false;
            const RedisValue v = m_monitor.readReply(1000, &timedOut);
            if (timedOut)
                continue;
            if (!v.isStatus())
                break;
            const QByteArray line = v.bytes();
            const int open = line.indexOf(" ["), close = line.indexOf(']', open);
            const int colon = line.lastIndexOf(':', close);
            const QByteArray body = line.mid(close + 2);
            if (body.startsWith("\"ECHO\" \"lockscope-test-mark:")) {
                const QByteArray name = body.mid(28, body.size() - 29);
                if (name == end)
                    return lines;
                lines.append({ quint16(0), name });
                continue;
            }
            lines.append({ quint16(line.mid(colon + 1, close - colon - 1).toUInt()), body });
        }
        lines.append({ quint16(0), "(the server's log ended before the last mark)" });
        return lines;
    }

private:
    RawRedis m_monitor;
    RawRedis m_marks;
    bool m_started = false;
};

} // namespace LockScope::Test
