#pragma once

// What the tests against Redisson itself share (tst_redisson, tst_redissoncounters, tst_redissonclaims): the pinned
// versions, the ten-minute lease that only a wake-up can beat, who waits on a name, and `watch --json`'s events.
#include "rawredis.h"
#include "redissonjvm.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace LockScope::Test {

// The versions a file of tests/interop/redisson lists, one a line (scripts/dev setup builds a driver for each).
inline QStringList redissonVersionsIn(const char *file)
{
    QFile list(QStringLiteral(LOCKSCOPE_INTEROP_DIR "/redisson/") + QLatin1String(file));
    QStringList versions;
    if (list.open(QIODevice::ReadOnly))
        for (const QByteArray &line : list.readAll().split('\n'))
            if (!line.trimmed().isEmpty() && !line.startsWith('#'))
                versions << QString::fromUtf8(line.trimmed());
    return versions;
}

// The versions pinned in versions.txt: every interop test runs at each.
inline QStringList pinnedRedissonVersions()
{
    return redissonVersionsIn("versions.txt");
}

// The versions only the guided demo's version claims are checked against (claims.txt): both sides of each boundary
// its narration names.
inline QStringList claimRedissonVersions()
{
    return redissonVersionsIn("claims.txt");
}

// A data column "version" with a row per pinned version.
inline void redissonVersionRows()
{
    QTest::addColumn<QString>("version");
    for (const QString &v : pinnedRedissonVersions())
        QTest::newRow(qPrintable(v)) << v;
}

// A data column "version" with the newest and the oldest pinned version: a behaviour that spans every version, at
// its two ends.
inline void oldestAndNewestRedissonRows()
{
    QTest::addColumn<QString>("version");
    const QStringList versions = pinnedRedissonVersions();
    QTest::newRow(qPrintable(versions.first())) << versions.first();
    QTest::newRow(qPrintable(versions.last())) << versions.last();
}

// Long enough that a waiter woken within a test's minute was woken by a message, not by its timer.
constexpr qint64 kLongLeaseMs = 600000;

inline QJsonObject lease(qint64 ms)
{
    return QJsonObject { { QStringLiteral("lease"), ms } };
}

// Some Redisson call is blocked on name: a subscription on one of its channels (every kind's waiters subscribe before
// they sleep; a fair waiter on a channel of its own) and, for a fair lock, its place in the queue.
inline bool someoneWaitsOn(RawRedis &raw, const QByteArray &name, bool fair = false)
{
    const RedisValue channels = raw.command({ "PUBSUB", "CHANNELS", "*" + name + "*" });
    if (channels.size() == 0)
        return false;
    return !fair || raw.command({ "LLEN", "redisson_lock_queue:{" + name + "}" }).toInteger() > 0;
}

// The lines `watch --json` printed by now, as objects.
inline void readEvents(QProcess &watch, QList<QJsonObject> *events)
{
    while (watch.canReadLine())
        *events << QJsonDocument::fromJson(watch.readLine()).object();
}

inline int countEvents(const QList<QJsonObject> &events, const QString &type, const QString &owner)
{
    int n = 0;
    for (const QJsonObject &e : events)
        n += e.value(QStringLiteral("event")).toString() == type
            && (owner.isEmpty() || e.value(QStringLiteral("owner")).toString() == owner);
    return n;
}

// Waits (reading watch's output) until pred holds for the events so far; false after a minute or if watch ended.
template <typename Pred> bool waitForEvents(QProcess &watch, QList<QJsonObject> *events, Pred pred)
{
    const QDeadlineTimer deadline(60000);
    while (!pred(*events)) {
        if (deadline.hasExpired() || watch.state() == QProcess::NotRunning)
            return false;
        watch.waitForReadyRead(500);
        readEvents(watch, events);
    }
    return true;
}

inline QByteArray eventsText(const QList<QJsonObject> &events)
{
    QByteArray text;
    for (const QJsonObject &e : events)
        text += QJsonDocument(e).toJson(QJsonDocument::Compact) + '\n';
    return text;
}

} // namespace LockScope::Test
