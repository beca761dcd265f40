// Locks kept in sorted sets (docs/protocol/libraries.md#sorted-set-locks), written with raw commands as each library's
// own scripts write them: redis-semaphore's semaphore (found under semaphore:* with no configuration) and Symfony's
// RedisStore (found under names declared symfony=GLOB). Each is listed with its library, holders and mode among
// look-alike sorted sets that are not locks; a release or force release removes exactly the members it names or was
// shown, as the library's own release does; read-only mode refuses; and a monitor hears members come and go through
// keyspace events alone.
#include "clirun.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include "models/locktablemodel.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray permitA = "9b2c1f2e-5d0c-4b7a-9a53-2f1c3e4d5a6b";
const QByteArray permitB0 = "0c8e7d6f-1a2b-4c3d-8e9f-a0b1c2d3e4f5_0";
const QByteArray permitB1 = "0c8e7d6f-1a2b-4c3d-8e9f-a0b1c2d3e4f5_1";
const QByteArray tokenA = "q0VxZ0lYb2d1cW5kSzZ4cUhGbE9qM2JzU0FtN2J4eU0=";
const QByteArray tokenB = "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGw=";

QByteArray ms(qint64 v)
{
    return QByteArray::number(v);
}

QStringList owners(const QJsonObject &lock)
{
    QStringList out;
    for (const QJsonValue &h : lock.value(QStringLiteral("holders")).toArray())
        out << h.toObject().value(QStringLiteral("owner")).toString();
    out.sort();
    return out;
}
} // namespace

class TestSortedSets : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };
    QTemporaryDir m_dir;

    CliRun cli(QStringList args) { return runCli(args << QStringLiteral("--url") << m_server.url(), m_dir); }

    // The locks `list --json` shows among names matching glob, by name; nothing (the test failed) when list failed.
    std::optional<QHash<QString, QJsonObject>> listed(const QString &glob, const QStringList &extra = {})
    {
        return listedLocks(m_server.url(), m_dir, glob, extra);
    }

    static qint64 now() { return QDateTime::currentMSecsSinceEpoch(); }

    // As redis-semaphore's acquire script writes a permit: ZADD key now id, PEXPIRE key lockTimeout.
    void takePermit(RawRedis &raw, const QByteArray &key, const QByteArray &id, qint64 at)
    {
        raw.command({ "ZADD", key, ms(at), id });
        raw.command({ "PEXPIRE", key, "10000" });
    }

    // As Symfony's save() writes an exclusive hold: the token and "__write__", scored by expiry; the key expires with
    // the last of them.
    void takeSymfony(RawRedis &raw, const QByteArray &key, const QByteArray &token, bool exclusive)
    {
        const QByteArray expiry = ms(now() + 300000);
        raw.command({ "ZADD", key, expiry, token });
        if (exclusive)
            raw.command({ "ZADD", key, expiry, "__write__" });
        raw.command({ "PEXPIREAT", key, expiry });
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void permitSetFoundWithoutConfiguration()
    {
        const QByteArray p = uniqueKey("ps");
        RawRedis raw(m_server.port());
        const QByteArray key = "semaphore:" + p + "thumbs";
        takePermit(raw, key, permitA, now());
        takePermit(raw, key, permitB0, now());
        takePermit(raw, key, permitB1, now() - 60000); // a MultiSemaphore's permit its holder stopped refreshing
        // Look-alikes: a leaderboard under the same prefix, a UUID set outside it, a sorted set in a lock pattern.
        raw.command({ "ZADD", "semaphore:" + p + "scores", "10", "alice", "20", "bob" });
        raw.command({ "ZADD", p + "visitors", ms(now()), permitA });
        raw.command({ "ZADD", "lock:" + p + "zset", ms(now()), permitA });

        const auto locks = listed(QStringLiteral("*%1*").arg(QString::fromUtf8(p)));
        QVERIFY(locks);
        QCOMPARE(locks->keys(), QStringList { QString::fromUtf8(key) });
        const QJsonObject lock = locks->value(QString::fromUtf8(key));
        QCOMPARE(lock.value(QStringLiteral("kind")).toString(), QStringLiteral("permit-set"));
        QCOMPARE(lock.value(QStringLiteral("library")).toString(), QStringLiteral("redis-semaphore"));
        QCOMPARE(lock.value(QStringLiteral("permits_taken")).toInteger(), 3);
        QCOMPARE(owners(lock),
            (QStringList { QString::fromUtf8(permitB0), QString::fromUtf8(permitB1), QString::fromUtf8(permitA) }));
        QCOMPARE(lock.value(QStringLiteral("confidence")).toString(), QStringLiteral("high"));
        // The stale permit is pointed out: the library's next acquire drops it.
        QVERIFY2(
            lock.value(QStringLiteral("warnings")).toArray().size() == 1, qPrintable(QJsonDocument(lock).toJson()));
    }

    void tokenSetFoundWhereDeclared()
    {
        const QByteArray p = uniqueKey("ts");
        RawRedis raw(m_server.port());
        const QByteArray exclusive = p + "invoice-pdf";
        const QByteArray shared = p + "catalog";
        takeSymfony(raw, exclusive, tokenA, true);
        takeSymfony(raw, shared, tokenA, false);
        takeSymfony(raw, shared, tokenB, false);
        raw.command({ "ZADD", p + "ranking", "1", "not-a-token" }); // declared, but no store's set

        const QString glob = QStringLiteral("*%1*").arg(QString::fromUtf8(p));
        // Symfony's names carry no prefix: undeclared, they are application data.
        const auto undeclared = listed(glob);
        QVERIFY(undeclared);
        QVERIFY(undeclared->isEmpty());
        const auto locks = listed(glob, { QStringLiteral("--layout-pattern"), QStringLiteral("symfony=") + glob });
        QVERIFY(locks);
        QCOMPARE(locks->size(), 2);
        const QJsonObject ex = locks->value(QString::fromUtf8(exclusive));
        QCOMPARE(ex.value(QStringLiteral("kind")).toString(), QStringLiteral("token-set"));
        QCOMPARE(ex.value(QStringLiteral("library")).toString(), QStringLiteral("symfony"));
        QCOMPARE(ex.value(QStringLiteral("mode")).toString(), QStringLiteral("write"));
        QCOMPARE(owners(ex), QStringList { QString::fromUtf8(tokenA) });
        const QJsonObject sh = locks->value(QString::fromUtf8(shared));
        QCOMPARE(sh.value(QStringLiteral("mode")).toString(), QStringLiteral("read"));
        QCOMPARE(owners(sh).size(), 2);
    }

    // A release is the ZREM of one member, as the library's own: the others stay, and Symfony's marker goes with its
    // exclusive holder.
    void releaseRemovesOneMember()
    {
        const QByteArray p = uniqueKey("rel");
        RawRedis raw(m_server.port());
        const QByteArray sem = "semaphore:" + p;
        takePermit(raw, sem, permitA, now());
        takePermit(raw, sem, permitB0, now());
        CliRun r = cli({ QStringLiteral("release"), QString::fromUtf8(sem), QStringLiteral("--owner"),
            QString::fromUtf8(permitA) });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY(raw.command({ "ZSCORE", sem, permitA }).isNil());
        QVERIFY(!raw.command({ "ZSCORE", sem, permitB0 }).isNil());
        // Not a member (any more): nothing happens, and the exit code says so.
        r = cli({ QStringLiteral("release"), QString::fromUtf8(sem), QStringLiteral("--owner"),
            QString::fromUtf8(permitA) });
        CLI_REFUSED(r, CliExit::NotDone, "not locked by current thread");
        QCOMPARE(raw.command({ "ZCARD", sem }).toInteger(), 1);

        const QByteArray store = p + "pdf";
        takeSymfony(raw, store, tokenA, true);
        r = cli({ QStringLiteral("release"), QString::fromUtf8(store), QStringLiteral("--owner"),
            QString::fromUtf8(tokenA), QStringLiteral("--layout-pattern"), QStringLiteral("symfony=") + store });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(
            raw.command({ "EXISTS", store }).toInteger(), 0); // the marker went with its holder, and with it the set
        // The marker is no holder to release.
        takeSymfony(raw, store, tokenA, true);
        r = cli({ QStringLiteral("release"), QString::fromUtf8(store), QStringLiteral("--owner"),
            QStringLiteral("__write__"), QStringLiteral("--layout-pattern"), QStringLiteral("symfony=") + store });
        CLI_REFUSED(r, CliExit::Usage, "__write__");
        QCOMPARE(raw.command({ "ZCARD", store }).toInteger(), 2);
    }

    // A force release removes the members that were seen and only those: a permit taken since stays, and a guard
    // naming a member that is gone changes nothing.
    void forceReleaseKeepsToWhatWasSeen()
    {
        const QByteArray p = uniqueKey("force");
        RawRedis raw(m_server.port());
        const QByteArray sem = "semaphore:" + p;
        takePermit(raw, sem, permitA, now());
        CliRun r = cli({ QStringLiteral("force-release"), QString::fromUtf8(sem), QStringLiteral("--expect-owner"),
            QString::fromUtf8(permitB0), QStringLiteral("--yes") });
        CLI_REFUSED(r, CliExit::NotDone, permitA); // who holds it now
        QCOMPARE(raw.command({ "ZCARD", sem }).toInteger(), 1);

        takePermit(raw, sem, permitB0, now());
        r = cli({ QStringLiteral("force-release"), QString::fromUtf8(sem), QStringLiteral("--expect-owner"),
            QString::fromUtf8(permitA), QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY(raw.command({ "ZSCORE", sem, permitA }).isNil());
        QVERIFY(!raw.command({ "ZSCORE", sem, permitB0 }).isNil());

        // Shown and confirmed: every member seen goes.
        r = cli({ QStringLiteral("force-release"), QString::fromUtf8(sem), QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.command({ "EXISTS", sem }).toInteger(), 0);
    }

    void readOnlyRefuses()
    {
        const QByteArray sem = "semaphore:" + uniqueKey("ro");
        RawRedis raw(m_server.port());
        takePermit(raw, sem, permitA, now());
        const CliRun r = cli({ QStringLiteral("--read-only"), QStringLiteral("force-release"), QString::fromUtf8(sem),
            QStringLiteral("--yes") });
        CLI_REFUSED(r, CliExit::Refused, "force-release refused: read-only mode");
        QCOMPARE(raw.command({ "ZCARD", sem }).toInteger(), 1);
    }

    // Keyspace events are relied on only when every class a layout changes by is sent: without strings ($) and sorted
    // sets (z), a SET without a TTL or a ZREM would go unheard, and the monitor keeps polling instead.
    void keyspaceEventsNeedEveryClass()
    {
        QCOMPARE(LockEventFeed::usableFlags("Khgx"), char(0));
        QCOMPARE(LockEventFeed::usableFlags("Kh$gx"), char(0));
        QCOMPARE(LockEventFeed::usableFlags("Kh$zgx"), 'K');
        QCOMPARE(LockEventFeed::usableFlags("Egxz$h"), 'E');
        QCOMPARE(LockEventFeed::usableFlags("KA"), 'K');
    }

    // With keyspace events and no re-scan due for an hour, a permit taken and one given back are heard as they
    // happen: sorted-set events are asked for.
    void permitsSeenLive()
    {
        const QByteArray sem = "semaphore:" + uniqueKey("live");
        RawRedis raw(m_server.port());
        LockMonitor::Options o = fastMonitorOptions(sem);
        o.rescanIntervalMs = 3600000;
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), o);
        QVERIFY(w.start());
        QCOMPARE(w.monitor.mode(), LockEventFeed::Mode::KeyspaceEvents);

        takePermit(raw, sem, permitA, now());
        QVERIFY(w.waitFor(LockEvent::Type::Acquired, sem));
        raw.command({ "ZADD", sem, ms(now()), permitB0 }); // a second permit, without touching the TTL
        QTRY_COMPARE(w.monitor.record(sem)->info.holders.size(), 2);
        raw.command({ "ZREM", sem, permitA });
        QTRY_COMPARE(w.monitor.record(sem)->info.holders.size(), 1);
        QCOMPARE(w.monitor.record(sem)->info.holders.first().owner, permitB0);
    }

    // Several tokens hold a shared Symfony lock at once: the table counts them rather than showing the first as the
    // holder, and the console's own token is ours wherever it stands among them.
    void severalTokensAreCountedNotTheFirstShown()
    {
        const QByteArray shared = uniqueKey("several");
        RawRedis raw(m_server.port());
        // As takeSymfony writes them, with the later expiry on the second token: members are listed in score order.
        const qint64 expiry = now() + 300000;
        raw.command({ "ZADD", shared, ms(expiry), tokenA, ms(expiry + 1000), tokenB });
        raw.command({ "PEXPIREAT", shared, ms(expiry + 1000) });
        LockMonitor::Options o = fastMonitorOptions(shared);
        o.stringPatterns.declare("symfony", shared);
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), o);
        LockTableModel table(&w.monitor);
        table.setOwnHolds({ { shared, tokenB } });
        QVERIFY(w.start());
        QTRY_COMPARE(w.monitor.record(shared)->info.holders.size(), 2);
        QCOMPARE(w.monitor.record(shared)->info.holders.first().owner, tokenA);
        QCOMPARE(table.rowCount(), 1);
        QCOMPARE(table.index(0, LockTableModel::Holders).data().toString(), QStringLiteral("2 holder(s)"));
        QVERIFY(table.index(0, LockTableModel::Holders).data(LockTableModel::OursRole).toBool());
        // One token left: it is the holder, shown as such.
        raw.command({ "ZREM", shared, tokenA });
        QTRY_COMPARE(w.monitor.record(shared)->info.holders.size(), 1);
        const QString one = table.index(0, LockTableModel::Holders).data().toString();
        QVERIFY2(one.startsWith(QString::fromLatin1(tokenB.left(40))) && one.endsWith(QStringLiteral(" (ours)")),
            qPrintable(one));
    }
};

QTEST_GUILESS_MAIN(TestSortedSets)
#include "tst_sortedsets.moc"
