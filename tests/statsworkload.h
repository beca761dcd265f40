#pragma once

// The scripted Redisson workload the contention tests drive (tst_stats, tst_metrics): lock writes made as Redisson's
// scripts make them, a `watch` that paces them so every monitor meets every state, and the server's own log of who
// read what. Include only from test executables, which define LOCKSCOPE_CLI_PATH.
#include "clirun.h"
#include "kinds/locknames.h"
#include "rawredis.h"
#include "redisserver.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace LockScope::Test {
inline const QByteArray kOwnerA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:31";
inline const QByteArray kOwnerB = "0f6c8a3e-1b2d-4c5e-8f90-a1b2c3d4e5f6:77";

inline QJsonObject json(const QByteArray &line)
{
    return QJsonDocument::fromJson(line).object();
}

inline QJsonObject lockIn(const QJsonObject &report, const QString &name)
{
    for (const QJsonValue &v : report.value(QStringLiteral("locks")).toArray())
        if (v[QStringLiteral("name")].toString() == name)
            return v.toObject();
    return {};
}

// The connections open on the server, by CLIENT LIST's id, with their addresses.
inline QMap<QByteArray, QByteArray> clientAddresses(RawRedis &raw)
{
    QMap<QByteArray, QByteArray> out;
    for (const QByteArray &line : raw.command({ "CLIENT", "LIST" }).bytes().split('\n')) {
        QByteArray id, addr;
        for (const QByteArray &field : line.trimmed().split(' ')) {
            if (field.startsWith("id="))
                id = field.mid(3);
            else if (field.startsWith("addr="))
                addr = field.mid(5);
        }
        if (!id.isEmpty())
            out.insert(id, addr);
    }
    return out;
}

// What a process that prints nothing until it stops (stats) has read, from the server's MONITOR stream: every command
// in the order the server ran it. A monitor that reads a key only after its hold ended never learns of the hold, so
// the test changes a lock again only once the process has read the change: on a busy machine stats lagged behind
// the pacer's watch and top, which the test waited for, and its counts came out short.
struct ServerLog
{
    RawRedis monitor;
    QByteArray writer; // the address of the test's connection that makes the changes (each one a MULTI/EXEC)
    QSet<QByteArray> readers; // the addresses of the watched process's connections

    explicit ServerLog(quint16 port)
        : monitor(port)
    { }

    bool start(RawRedis &raw)
    {
        const QByteArray info = raw.command({ "CLIENT", "INFO" }).bytes();
        const int at = info.indexOf("addr=");
        writer = info.mid(at + 5, info.indexOf(' ', at) - at - 5);
        monitor.append({ "MONITOR" });
        return at >= 0 && monitor.readReply(5000).bytes() == "OK";
    }

    // Reads the log up to the writer's next EXEC, then on until a reader has read key whole after it (the hash, then
    // its PTTL, as the monitor reads a key an event named): that read saw what the EXEC made.
    bool readAfterChange(const QByteArray &key)
    {
        const QByteArray hashRead = "\"" + key + "\"", ttlRead = "] \"PTTL\" \"" + key + "\"";
        QByteArray reader; // whose hash read came first, after the change
        enum { Change, Hash, Ttl } phase = Change;
        QByteArray seen;
        const QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            bool timedOut = false;
            const RedisValue v = monitor.readReply(1000, &timedOut);
            if (timedOut)
                continue;
            if (!v.isStatus())
                break; // the connection failed
            const QByteArray line = v.bytes();
            const int open = line.indexOf(" ["), space = line.indexOf(' ', open + 2), close = line.indexOf(']', open);
            const QByteArray from = line.mid(space + 1, close - space - 1);
            if (phase == Change && from == writer && line.mid(close).startsWith("] \"EXEC\"")) {
                phase = Hash;
            } else if (phase == Hash && readers.contains(from)
                && (line.mid(close).startsWith("] \"HSCAN\" " + hashRead)
                    || line.mid(close).startsWith("] \"HGETALL\" " + hashRead))) {
                reader = from;
                phase = Ttl;
            } else if (phase == Ttl && from == reader && line.mid(close) == ttlRead) {
                return true;
            }
            if (readers.contains(from) && line.contains(hashRead))
                seen += line + '\n';
        }
        qWarning("no read of %s by the watched process after the change; its reads of it:\n%s", key.constData(),
            seen.constData());
        return false;
    }
};

// A paced Redisson workload: each step is seen by a `watch` of the same names before the next is made, so every
// monitor meets every state. Waits for the watch's line for the event.
struct Pacer
{
    QProcess watch;
    bool next(const char *event, const QByteArray &name)
    {
        QByteArray others; // what the watch said of this name instead, for the failure's message
        for (int i = 0; i < 400; ++i) {
            if (!watch.canReadLine() && !watch.waitForReadyRead(100))
                continue;
            while (watch.canReadLine()) {
                const QByteArray line = watch.readLine();
                const QJsonObject o = json(line);
                if (o[QStringLiteral("name")].toString().toUtf8() != name)
                    continue;
                if (o[QStringLiteral("event")].toString() == QLatin1String(event))
                    return true;
                others += line;
            }
        }
        qWarning("no %s event for %s; its other lines:\n%s", event, name.constData(), others.constData());
        return false;
    }
};

inline void startPacer(Pacer &pacer, const RedisServer &server, const QString &pattern, const QTemporaryDir &dir)
{
    startCli(pacer.watch,
        QStringList { QStringLiteral("--json"), QStringLiteral("watch"), QStringLiteral("--pattern"), pattern,
            QStringLiteral("--interval"), QStringLiteral("100") }
            + QStringList { QStringLiteral("--url"), server.url() },
        dir);
    QByteArray status;
    QTRY_VERIFY_WITH_TIMEOUT((status += pacer.watch.readAllStandardError()).contains("watching"), 20000);
}

inline void acquire(RawRedis &raw, const QByteArray &name, const QByteArray &owner, const QByteArray &leaseMs)
{
    raw.command({ "MULTI" });
    raw.command({ "HSET", name, owner, "1" });
    if (!leaseMs.isEmpty())
        raw.command({ "PEXPIRE", name, leaseMs });
    raw.command({ "EXEC" });
}
inline void release(RawRedis &raw, const QByteArray &name, const QByteArray &owner)
{
    // As Redisson's unlock script, at once: the count goes down, the key goes, the waiters are told.
    raw.command({ "MULTI" });
    raw.command({ "HINCRBY", name, owner, "-1" });
    raw.command({ "DEL", name });
    raw.command({ "PUBLISH", LockNames::lockChannel(name), "0" });
    raw.command({ "EXEC" });
}
// Reads top's lines (one every interval) until one counts at least n acquisitions of name: top's monitor has
// seen them. A second monitor that must meet every state before the next step, beside the pacer's watch.
inline bool topCounts(QProcess &top, const QByteArray &name, int n)
{
    for (int i = 0; i < 120; ++i) {
        if (!top.canReadLine() && !top.waitForReadyRead(1000))
            continue;
        while (top.canReadLine())
            if (lockIn(json(top.readLine()), QString::fromUtf8(name))[QStringLiteral("acquisitions")].toInt() >= n)
                return true;
    }
    qWarning("top never counted %d acquisition(s) of %s", n, name.constData());
    return false;
}
inline void waitForStatus(QProcess &p, const char *text)
{
    QByteArray status;
    QTRY_VERIFY_WITH_TIMEOUT((status += p.readAllStandardError()).contains(text), 20000);
}

} // namespace LockScope::Test
