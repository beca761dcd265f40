// Hostile and odd data on a real server: huge hashes, binary and 64 KiB names, non-numeric counts, aux keys of the
// wrong type, and keys deleted while the monitor scans. Nothing crashes, nothing is invented, and what is wrong is
// reported on the lock it concerns.
#include "models/locktablemodel.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kA = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac";

QByteArray owner(int i)
{
    return kA + ':' + QByteArray::number(i);
}

LockMonitor::Options options(const QByteArray &pattern)
{
    LockMonitor::Options o;
    o.pattern = pattern;
    o.scanCount = 50;
    o.rescanIntervalMs = 200;
    o.ttlPollIntervalMs = 100;
    return o;
}

void seedLock(RawRedis &raw, const QByteArray &name, const QByteArray &count = "1")
{
    raw.command({ "HSET", name, owner(1), count });
    raw.command({ "PEXPIRE", name, "600000" });
}
} // namespace

class TestMalformed : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };

    ConnectionOptions connection() const { return ConnectionOptions::fromUrl(m_server.url()); }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void hugeHashes()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("huge") + ":";
        QList<QByteArray> user { "HSET", p + "user" }, shaped { "HSET", p + "shaped" };
        for (int i = 0; i < 100000; ++i) {
            user << "field:" + QByteArray::number(i) << "value";
            shaped << owner(i) << "1";
        }
        QCOMPARE(raw.command(user).toInteger(), 100000);
        QCOMPARE(raw.command(shaped).toInteger(), 100000);
        raw.command({ "PEXPIRE", p + "user", "600000" });
        raw.command({ "PEXPIRE", p + "shaped", "600000" });
        raw.command({ "SET", "redisson_lock_token:{" + p + "shaped}", "7" }); // something says it is a lock
        seedLock(raw, p + "real");

        MonitorWatch w(connection(), options(p + "*"));
        LockTableModel table(&w.monitor);
        QVERIFY(w.start());
        QCOMPARE(w.monitor.lockCount(), 2);
        QVERIFY(!w.monitor.record(p + "user")); // user data, rejected from its first page
        const LockRecord *shapedLock = w.monitor.record(p + "shaped");
        QVERIFY(shapedLock && shapedLock->present);
        QCOMPARE(shapedLock->info.holders.size(), 100000);
        QVERIFY(shapedLock->warnings().join(QString()).contains(QStringLiteral("100000 owners")));
        QCOMPARE(table.index(table.rowOf(p + "shaped"), LockTableModel::Holders).data().toString(),
            QStringLiteral("100000 holder(s)"));
        // A write to the huge user hash is not a reason to read it again and again.
        raw.command({ "HSET", p + "user", "field:x", "y" });
        raw.command({ "HSET", p + "user", "field:z", "y" });
        seedLock(raw, p + "after");
        QVERIFY(w.waitFor(LockEvent::Type::Acquired, p + "after"));
        QVERIFY(!w.monitor.record(p + "user"));
        // The slow log with a zero threshold records every command: count the reads of the user hash.
        raw.command({ "CONFIG", "SET", "slowlog-log-slower-than", "0" });
        raw.command({ "CONFIG", "SET", "slowlog-max-len", "100000" });
        raw.command({ "SLOWLOG", "RESET" });
        for (int i = 0; i < 20; ++i)
            raw.command({ "HSET", p + "user", "field:" + QByteArray::number(i), "z" });
        seedLock(raw, p + "after2");
        QVERIFY(w.waitFor(LockEvent::Type::Acquired, p + "after2"));
        const RedisValue log = raw.command({ "SLOWLOG", "GET", "-1" });
        raw.command({ "CONFIG", "SET", "slowlog-log-slower-than", "10000" });
        int userReads = 0;
        for (const RedisValue &entry : log.elements()) {
            const RedisValue &args = entry.at(3);
            userReads += args.size() > 1 && args.at(0).bytes().toUpper() != "HSET" && args.at(1).bytes() == p + "user";
        }
        QCOMPARE(userReads, 0);
        QVERIFY2(w.errors.isEmpty(), qPrintable(w.errors.join(QLatin1Char('\n'))));
    }

    void binaryAndLongNames()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("bin") + ":";
        const QByteArray binary = p + QByteArray("\x00\xff\n\x1b[31m", 8);
        const QByteArray longName = p + QByteArray(64 * 1024, 'L');
        seedLock(raw, binary);
        seedLock(raw, longName);

        MonitorWatch w(connection(), options(p + "*"));
        LockTableModel table(&w.monitor);
        QVERIFY(w.start());
        QCOMPARE(w.monitor.lockCount(), 2);
        QVERIFY(w.monitor.record(binary) && w.monitor.record(binary)->present); // the exact bytes, not a copy
        QVERIFY(w.monitor.record(longName) && w.monitor.record(longName)->present);
        const QString shown = table.index(table.rowOf(binary), LockTableModel::Name).data().toString();
        QVERIFY2(!shown.contains(QLatin1Char('\n')) && !shown.contains(QChar(0x1b)), qPrintable(shown));
        QVERIFY(table.index(table.rowOf(longName), LockTableModel::Name).data().toString().size() < 1000);

        // Live events for them too: the keyspace channel carries the binary name.
        raw.command({ "HINCRBY", binary, owner(1), "1" });
        QVERIFY(w.waitFor(LockEvent::Type::Reentered, binary));
        raw.command({ "DEL", longName });
        QVERIFY(w.waitFor(LockEvent::Type::ForceReleased, longName));
    }

    void nonNumericCountsAndWrongAuxTypes()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("odd") + ":";
        // Vouched for by a fencing token, yet its count is not a number: a corrupted lock, reported as such.
        raw.command({ "HSET", p + "corrupt", owner(1), "abc" });
        raw.command({ "PEXPIRE", p + "corrupt", "600000" });
        raw.command({ "SET", "redisson_lock_token:{" + p + "corrupt}", "3" });
        // The same shape with nothing but a TTL: a user's hash, left alone.
        raw.command({ "HSET", p + "lookalike", owner(1), "yes" });
        raw.command({ "PEXPIRE", p + "lookalike", "600000" });
        // A lock whose fair-queue keys hold the wrong types: the reads of them fail, the lock is still shown.
        seedLock(raw, p + "wrongaux");
        raw.command({ "SET", "redisson_lock_queue:{" + p + "wrongaux}", "not a list" });
        raw.command({ "HSET", "redisson_lock_timeout:{" + p + "wrongaux}", "not", "a zset" });

        MonitorWatch w(connection(), options(p + "*"));
        QVERIFY(w.start());
        const LockRecord *corrupt = w.monitor.record(p + "corrupt");
        QVERIFY(corrupt && corrupt->present);
        QCOMPARE(corrupt->info.kind, LockInfo::Kind::Unknown);
        QVERIFY(corrupt->warnings().join(QString()).contains(QStringLiteral("not a positive integer")));
        QVERIFY(!w.monitor.record(p + "lookalike"));
        const LockRecord *wrongAux = w.monitor.record(p + "wrongaux");
        QVERIFY(wrongAux && wrongAux->present);
        QCOMPARE(wrongAux->info.kind, LockInfo::Kind::Reentrant);
        QCOMPARE(w.monitor.lockCount(), 2);
    }

    void keysDeletedWhileScanning()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("churn") + ":";
        constexpr int kLocks = 4000;
        for (int i = 0; i < kLocks; ++i) {
            raw.append({ "HSET", p + QByteArray::number(i), owner(i), "1" });
            raw.append({ "PEXPIRE", p + QByteArray::number(i), "600000" });
        }
        for (int i = 0; i < 2 * kLocks; ++i)
            QVERIFY(!raw.readReply(5000).isError());

        LockMonitor::Options o = options(p + "*");
        o.scanCount = 20; // many small rounds, so the deletions land in the middle of the pass
        MonitorWatch w(connection(), o);
        QSet<QByteArray> remaining;
        for (int i = 0; i < kLocks; ++i)
            remaining.insert(p + QByteArray::number(i));
        bool deleted = false;
        QObject::connect(&w.monitor, &LockMonitor::locksChanged, [&] {
            if (deleted)
                return;
            deleted = true;
            RawRedis killer(m_server.port());
            for (int i = 0; i < kLocks; i += 2) {
                killer.append({ "DEL", p + QByteArray::number(i) });
                remaining.remove(p + QByteArray::number(i));
            }
            for (int i = 0; i < kLocks; i += 2)
                killer.readReply(5000);
        });
        QVERIFY(w.start(60000));
        QVERIFY(deleted);
        QTRY_COMPARE_WITH_TIMEOUT(w.monitor.lockCount(), int(remaining.size()), 20000);
        const QList<QByteArray> names = w.monitor.lockNames();
        QCOMPARE(QSet<QByteArray>(names.cbegin(), names.cend()), remaining);
        QVERIFY2(w.errors.isEmpty(), qPrintable(w.errors.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestMalformed)
#include "tst_malformed.moc"
