// What a name holds is judged once (kinds/hashrecognition.h, from the layouts' marks) and read three ways: the Lua
// kind check every acquire script runs first, the probe before a release or force release, and the classifier that
// list and show use. For every state a lock's keys can be in, all three name the same layout; before the marks they
// were three hand-kept copies, and the probe took a fenced lock with a stray fair queue for a fair one.
#include "kinds/acquirecheck.h"
#include "kinds/hashrecognition.h"
#include "kinds/lockatname.h"
#include "kinds/locklayout.h"
#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "ops/inspect.h"
#include "rawredis.h"
#include "redis/redisrouter.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kWaiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42";

enum Part { Hash = 1, Mode = 2, Token = 4, Queue = 8, Timeouts = 16 };
} // namespace

class TestRecognition : public QObject
{
    Q_OBJECT
    RedisServer m_server;

    // The keys of name as the parts say, as Redisson's clients leave them.
    static void build(RawRedis &raw, const QByteArray &name, int parts)
    {
        if (parts & Mode)
            raw.command({ "HSET", name, "mode", "write", kHolder + ":write", "1" });
        else if (parts & Hash)
            raw.command({ "HSET", name, kHolder, "1" });
        if (parts & Hash)
            raw.command({ "PEXPIRE", name, "600000" });
        if (parts & Token)
            raw.command({ "SET", LockNames::fencingToken(name), "7" });
        if (parts & Queue)
            raw.command({ "RPUSH", LockNames::fairQueue(name), kWaiter });
        if (parts & Timeouts)
            raw.command({ "ZADD", LockNames::fairTimeouts(name),
                QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), kWaiter });
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void everyJudgementAgrees_data()
    {
        QTest::addColumn<int>("parts");
        QTest::addColumn<QByteArray>("layout"); // the layout's id; empty: no lock hash there
        QTest::newRow("plain hash") << int(Hash) << QByteArray("reentrant");
        QTest::newRow("mode field") << int(Hash | Mode) << QByteArray("readwrite");
        QTest::newRow("mode beats aux keys") << int(Hash | Mode | Token | Queue) << QByteArray("readwrite");
        QTest::newRow("fencing token") << int(Hash | Token) << QByteArray("fenced");
        QTest::newRow("fair queue") << int(Hash | Queue) << QByteArray("fair");
        QTest::newRow("fair deadlines alone") << int(Hash | Timeouts) << QByteArray("fair");
        // A fenced lock's name may have had a fair waiter, never the other way round.
        QTest::newRow("token beats a stray queue") << int(Hash | Token | Queue | Timeouts) << QByteArray("fenced");
        QTest::newRow("idle fair lock's queue, no hash") << int(Queue) << QByteArray("fair");
        QTest::newRow("nothing") << 0 << QByteArray();
    }

    void everyJudgementAgrees()
    {
        QFETCH(int, parts);
        QFETCH(QByteArray, layout);
        LockClient client(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("recognise");
        build(raw, name, parts);

        // 1. The acquire scripts' kind check, run as they run it.
        QList<QByteArray> argv { "EVAL", AcquireCheck::lua() + "\nreturn lockKindAt(KEYS[1], unpack(ARGV))", "1",
            name };
        argv << AcquireCheck::auxKeys(name);
        const RedisValue lua = raw.command(argv);
        QVERIFY2(!lua.isError(), lua.bytes().constData());
        QCOMPARE(lua.bytes(), layout.isEmpty() ? QByteArray("none") : layout);

        // 2. The reading before a release or force release (whose script's guard runs the kind check of 1).
        const LockNow now = await<LockNow>([&](auto d) { Ops::inspect(&client, name, d); });
        QVERIFY2(!now.error.isError(), qPrintable(now.error.toString()));
        if (parts & Hash)
            QCOMPARE(QByteArray(LockLayouts::forMode(now.actionMode(kHolder)).id()), layout);

        // 3. The classifier, as show reads the name.
        const NameReading reading = await<NameReading>([&](auto d) {
            LockAtName::read(client.connection(), name, StringLockPatterns(StringLockPatterns::defaults()), d);
        });
        QVERIFY2(!reading.error.isError(), qPrintable(reading.error.toString()));
        if (parts & Hash) {
            QVERIFY(reading.lock.has_value());
            const LockLayout *shown = LockLayouts::forKind(reading.lock->kind);
            QVERIFY(shown);
            QCOMPARE(QByteArray(shown->id()), layout);
        }
    }

    // A name that holds something else: the kind check names its type, the reading refuses it by name.
    void otherTypes()
    {
        LockClient client(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("recognise-list");
        raw.command({ "RPUSH", name, "a" });
        QList<QByteArray> argv { "EVAL", AcquireCheck::lua() + "\nreturn lockKindAt(KEYS[1], unpack(ARGV))", "1",
            name };
        argv << AcquireCheck::auxKeys(name);
        QCOMPARE(raw.command(argv).bytes(), QByteArray("list"));
        const LockNow now = await<LockNow>([&](auto d) { Ops::inspect(&client, name, d); });
        QVERIFY2(now.error.message().contains(QLatin1String("holds a list")), qPrintable(now.error.message()));
        QVERIFY(!HashRecognition::decide("list", {}));
    }

    // The marks, as the registry orders them: the generated reads and the Lua follow that order.
    void marksInRankOrder()
    {
        const QList<HashRecognition::Read> &reads = HashRecognition::reads();
        QCOMPARE(reads.size(), 4);
        QCOMPARE(reads.at(0).field, QByteArray("mode"));
        QCOMPARE(reads.at(1).auxKey("n"), LockNames::fencingToken("n"));
        QCOMPARE(reads.at(2).auxKey("n"), LockNames::fairQueue("n"));
        QCOMPARE(reads.at(3).auxKey("n"), LockNames::fairTimeouts("n"));
        QCOMPARE(HashRecognition::auxKeys("n"),
            (QList<QByteArray> {
                LockNames::fencingToken("n"), LockNames::fairQueue("n"), LockNames::fairTimeouts("n") }));
    }
};

QTEST_GUILESS_MAIN(TestRecognition)
#include "tst_recognition.moc"
