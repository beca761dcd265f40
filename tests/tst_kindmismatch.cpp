// An acquire never turns one kind of lock into another (issue 15, point 4). Each lock below is laid out exactly as
// a Java client leaves it; acquiring it as another kind is refused with a KindMismatch error that names the kind
// Redis holds, decided inside the acquire script, and Redis is left byte for byte as it was (DUMP, TTL, DBSIZE).
#include "clirun.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redis/redisrouter.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QProcess>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kJavaOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:12";

enum class Layout { Reentrant, FairQueued, FairTimeoutsOnly, ReadWrite, FencedHeld, FencedIdle, String };

AcquireRequest request(const QByteArray &name, LockMode kind, qint64 waitMs = 0)
{
    AcquireRequest r;
    r.name = name;
    r.kind = kind;
    r.leaseMs = 30000;
    r.waitMs = waitMs;
    r.token = "1";
    return r;
}

// Everything an acquire could touch, as Redis holds it: every key's serialized value and whether its TTL moved.
struct Snapshot
{
    QList<QByteArray> values;
    QList<qint64> ttls;
    qint64 keys = 0;
};

QList<QByteArray> touched(const QByteArray &name)
{
    return { name, LockNames::fencingToken(name), LockNames::fairQueue(name), LockNames::fairTimeouts(name),
        LockNames::rwTimeoutPrefix(name, "x") };
}

Snapshot snapshot(RawRedis &raw, const QByteArray &name)
{
    Snapshot s;
    for (const QByteArray &key : touched(name)) {
        const RedisValue dump = raw.command({ "DUMP", key });
        s.values << (dump.isNil() ? QByteArray("(absent)") : dump.bytes());
        s.ttls << raw.pttl(key);
    }
    s.keys = raw.command({ "DBSIZE" }).toInteger();
    return s;
}

// Values and key count equal; a TTL only ran down (no lease was set again: every layout's TTL is 10 minutes).
void compareUnchanged(const Snapshot &before, const Snapshot &after)
{
    QCOMPARE(after.values, before.values);
    QCOMPARE(after.keys, before.keys);
    for (int i = 0; i < before.ttls.size(); ++i) {
        QVERIFY2(after.ttls.at(i) <= before.ttls.at(i) && after.ttls.at(i) > before.ttls.at(i) - 60000,
            qPrintable(QStringLiteral("TTL %1 -> %2").arg(before.ttls.at(i)).arg(after.ttls.at(i))));
    }
}

void lay(RawRedis &raw, const QByteArray &name, Layout layout)
{
    const QByteArray deadline = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000);
    const QByteArray waiter = "0b0e2f7a-53f1-4a4f-9e0e-1a6c6cf7f3aa:7";
    switch (layout) {
    case Layout::Reentrant:
        raw.command({ "HSET", name, kJavaOwner, "1" });
        break;
    case Layout::FairQueued:
        raw.command({ "HSET", name, kJavaOwner, "1" });
        raw.command({ "RPUSH", LockNames::fairQueue(name), waiter });
        raw.command({ "ZADD", LockNames::fairTimeouts(name), deadline, waiter });
        break;
    case Layout::FairTimeoutsOnly:
        // A jammed queue's leftover deadline, and nobody holding the lock.
        raw.command({ "ZADD", LockNames::fairTimeouts(name), deadline, waiter });
        break;
    case Layout::ReadWrite:
        raw.command({ "HSET", name, "mode", "write", kJavaOwner + ":write", "1" });
        break;
    case Layout::FencedHeld:
        raw.command({ "HSET", name, kJavaOwner, "1" });
        raw.command({ "SET", LockNames::fencingToken(name), "41" });
        break;
    case Layout::FencedIdle:
        raw.command({ "SET", LockNames::fencingToken(name), "41" });
        break;
    case Layout::String:
        raw.command({ "SET", name, "someone-elses-token" });
        break;
    }
    if (raw.type(name) != "none")
        raw.command({ "PEXPIRE", name, "600000" });
}

QString foundWords(Layout layout)
{
    switch (layout) {
    case Layout::Reentrant:
        return QStringLiteral("a reentrant lock");
    case Layout::FairQueued:
    case Layout::FairTimeoutsOnly:
        return QStringLiteral("a fair lock");
    case Layout::ReadWrite:
        return QStringLiteral("a read-write lock");
    case Layout::FencedHeld:
    case Layout::FencedIdle:
        return QStringLiteral("a fenced lock");
    case Layout::String:
        return QStringLiteral("string");
    }
    return {};
}
} // namespace

Q_DECLARE_METATYPE(Layout)
Q_DECLARE_METATYPE(LockScope::LockMode)

class TestKindMismatch : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    ConnectionOptions m_options;

    QTemporaryDir m_dir; // the CLI's audit log

    // A crash, a hang or a sanitizer's report fails the test (clirun.h), and leaves exitCode -1.
    CliRun cli(const QStringList &args)
    {
        return runCli(args + QStringList { QStringLiteral("--url"), m_server.url() }, m_dir);
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        m_options = ConnectionOptions::fromUrl(m_server.url());
    }

    void lockClientRefusesAnotherKind_data()
    {
        QTest::addColumn<Layout>("layout");
        QTest::addColumn<LockMode>("kind");
        QTest::addColumn<qint64>("waitMs");
        QTest::newRow("reentrant on a fair lock") << Layout::FairQueued << LockMode::Reentrant << qint64(0);
        QTest::newRow("reentrant on a fair timeout set")
            << Layout::FairTimeoutsOnly << LockMode::Reentrant << qint64(0);
        QTest::newRow("reentrant on a read-write lock") << Layout::ReadWrite << LockMode::Reentrant << qint64(0);
        QTest::newRow("reentrant on a held fenced lock") << Layout::FencedHeld << LockMode::Reentrant << qint64(0);
        QTest::newRow("reentrant on an idle fenced lock") << Layout::FencedIdle << LockMode::Reentrant << qint64(0);
        QTest::newRow("fenced on a reentrant lock") << Layout::Reentrant << LockMode::Fenced << qint64(0);
        QTest::newRow("fenced on a fair lock") << Layout::FairQueued << LockMode::Fenced << qint64(0);
        QTest::newRow("fenced on a read-write lock") << Layout::ReadWrite << LockMode::Fenced << qint64(0);
        QTest::newRow("fair on a read-write lock") << Layout::ReadWrite << LockMode::Fair << qint64(0);
        QTest::newRow("fair on a fenced lock") << Layout::FencedHeld << LockMode::Fair << qint64(0);
        QTest::newRow("fair on an idle fenced lock") << Layout::FencedIdle << LockMode::Fair << qint64(0);
        QTest::newRow("read on a reentrant lock") << Layout::Reentrant << LockMode::Read << qint64(0);
        QTest::newRow("read on a fenced lock") << Layout::FencedHeld << LockMode::Read << qint64(0);
        QTest::newRow("write on a reentrant lock") << Layout::Reentrant << LockMode::Write << qint64(0);
        QTest::newRow("write on a fair lock") << Layout::FairQueued << LockMode::Write << qint64(0);
        QTest::newRow("write on an idle fenced lock") << Layout::FencedIdle << LockMode::Write << qint64(0);
        // A waiting acquire is refused at once: it neither waits nor queues.
        QTest::newRow("waiting reentrant on a fair lock") << Layout::FairQueued << LockMode::Reentrant << qint64(-1);
        QTest::newRow("waiting fair on a read-write lock") << Layout::ReadWrite << LockMode::Fair << qint64(600000);
        QTest::newRow("waiting write on a reentrant lock") << Layout::Reentrant << LockMode::Write << qint64(600000);
    }

    void lockClientRefusesAnotherKind()
    {
        QFETCH(Layout, layout);
        QFETCH(LockMode, kind);
        QFETCH(qint64, waitMs);
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("mismatch");
        lay(raw, name, layout);
        const Snapshot before = snapshot(raw, name);

        const AcquireResult r = acquire(client, request(name, kind, waitMs));
        QVERIFY(!r.acquired);
        QCOMPARE(r.error.kind(), RedisError::Kind::KindMismatch);
        QVERIFY2(r.error.message().contains(foundWords(layout)), qPrintable(r.error.message()));
        QVERIFY2(r.error.message().contains(QString::fromUtf8(name)), qPrintable(r.error.message()));
        compareUnchanged(before, snapshot(raw, name));
        QVERIFY(client.holds().isEmpty());
        // Nobody was left listening for a wake-up either.
        for (const QByteArray &channel : { LockNames::lockChannel(name), LockNames::rwChannel(name),
                 LockNames::fairChannel(name, client.ownerField("1")) })
            QCOMPARE(raw.command({ "PUBSUB", "NUMSUB", channel }).at(1).toInteger(), 0);
    }

    void matchingKindsStillWork()
    {
        // A held lock hash with no queue is also an idle fair lock: a fair acquire meets a busy lock, no error.
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray plain = uniqueKey("match-fair");
        lay(raw, plain, Layout::Reentrant);
        const AcquireResult fair = acquire(client, request(plain, LockMode::Fair));
        QVERIFY2(!fair.error.isError(), qPrintable(fair.error.toString()));
        QVERIFY(!fair.acquired);
        QVERIFY(fair.ttlMs > 0);

        // The token key alone marks an idle fenced lock: a fenced acquire takes it and draws the next token.
        const QByteArray idle = uniqueKey("match-fenced");
        lay(raw, idle, Layout::FencedIdle);
        const AcquireResult fenced = acquire(client, request(idle, LockMode::Fenced));
        QVERIFY2(fenced.acquired, qPrintable(fenced.error.toString()));
        QCOMPARE(fenced.fencingToken, 42);

        // A Java writer's read-write lock: our write is refused as busy, not as a mismatch.
        const QByteArray rw = uniqueKey("match-rw");
        lay(raw, rw, Layout::ReadWrite);
        const AcquireResult write = acquire(client, request(rw, LockMode::Write));
        QVERIFY2(!write.error.isError(), qPrintable(write.error.toString()));
        QVERIFY(!write.acquired);

        // Reentry of our own reentrant hold still works.
        const QByteArray mine = uniqueKey("match-reentrant");
        QVERIFY(acquire(client, request(mine, LockMode::Reentrant)).acquired);
        QVERIFY(acquire(client, request(mine, LockMode::Reentrant)).acquired);
        QCOMPARE(raw.hgetall(mine), (QMap<QByteArray, QByteArray> { { client.ownerField("1"), "2" } }));
    }

    void fencedNameStaysFencedUntilItsTokenKeyIsDeleted()
    {
        // What docs/protocol/fenced.md#a-fenced-name-stays-fenced says: neither a release nor a force release ends
        // a name's fencing, only deleting its token key does, and the sequence then starts again.
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("stays-fenced");
        const AcquireResult fenced = acquire(client, request(name, LockMode::Fenced));
        QVERIFY2(fenced.acquired, qPrintable(fenced.error.toString()));
        QCOMPARE(release(client, name, fenced.owner, LockMode::Fenced).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(raw.command({ "PTTL", LockNames::fencingToken(name) }).toInteger(), -1); // never expires
        const AcquireResult refused = acquire(client, request(name, LockMode::Reentrant));
        QCOMPARE(refused.error.kind(), RedisError::Kind::KindMismatch);
        QVERIFY2(refused.error.message().contains(QString::fromUtf8(LockNames::fencingToken(name))),
            qPrintable(refused.error.message()));

        // Held again and force-released: still fenced.
        QVERIFY(acquire(client, request(name, LockMode::Fenced)).acquired);
        const ForceReleaseResult forced = await<ForceReleaseResult>(
            [&](auto done) { client.forceRelease(name, QByteArray(), done, LockMode::Fenced); });
        QVERIFY2(!forced.error.isError(), qPrintable(forced.error.toString()));
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(acquire(client, request(name, LockMode::Reentrant)).error.kind(), RedisError::Kind::KindMismatch);

        // The documented way out: delete the token key. Then another kind is taken, and a fenced lock of that name
        // would start its sequence again.
        QCOMPARE(raw.command({ "DEL", LockNames::fencingToken(name) }).toInteger(), 1);
        const AcquireResult reentrant = acquire(client, request(name, LockMode::Reentrant));
        QVERIFY2(reentrant.acquired, qPrintable(reentrant.error.toString()));
        QCOMPARE(release(client, name, reentrant.owner).outcome, ReleaseResult::Outcome::Released);
        const AcquireResult again = acquire(client, request(name, LockMode::Fenced));
        QVERIFY(again.acquired);
        QCOMPARE(again.fencingToken, 1);
        QCOMPARE(release(client, name, again.owner, LockMode::Fenced).outcome, ReleaseResult::Outcome::Released);
    }

    void redissonKindOnAStringStaysAWrongTypeError()
    {
        LockClient client(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("mismatch-string");
        lay(raw, name, Layout::String);
        const Snapshot before = snapshot(raw, name);
        const AcquireResult r = acquire(client, request(name, LockMode::Fenced));
        QVERIFY(!r.acquired);
        QCOMPARE(r.error.kind(), RedisError::Kind::Reply);
        QVERIFY2(r.error.message().contains(QLatin1String("holds a string")), qPrintable(r.error.message()));
        compareUnchanged(before, snapshot(raw, name));
    }

    void stringLockRefusesARedissonLock_data()
    {
        QTest::addColumn<Layout>("layout");
        QTest::newRow("reentrant hash") << Layout::Reentrant;
        QTest::newRow("read-write hash") << Layout::ReadWrite;
        QTest::newRow("idle fenced lock") << Layout::FencedIdle;
        QTest::newRow("jammed fair queue") << Layout::FairTimeoutsOnly;
    }

    void stringLockRefusesARedissonLock()
    {
        QFETCH(Layout, layout);
        LockClient strings(m_options);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("mismatch-set-nx");
        lay(raw, name, layout);
        const Snapshot before = snapshot(raw, name);
        const AcquireResult r = acquire(strings, request(name, LockMode::String));
        QVERIFY(!r.acquired);
        QCOMPARE(r.error.kind(), RedisError::Kind::KindMismatch);
        QVERIFY2(r.error.message().contains(foundWords(layout)), qPrintable(r.error.message()));
        QVERIFY2(r.error.message().contains(QLatin1String("string lock")), qPrintable(r.error.message()));
        compareUnchanged(before, snapshot(raw, name));
        QVERIFY(strings.holds().isEmpty());
    }

    void cliRefusesAndWritesNothing_data()
    {
        QTest::addColumn<Layout>("layout");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("reentrant on a fair lock") << Layout::FairQueued << QStringList {};
        QTest::newRow("fenced on a read-write lock")
            << Layout::ReadWrite << QStringList { QStringLiteral("--kind"), QStringLiteral("fenced") };
        QTest::newRow("waiting write on a reentrant lock")
            << Layout::Reentrant
            << QStringList { QStringLiteral("--kind"), QStringLiteral("write"), QStringLiteral("--wait"),
                   QStringLiteral("600000") };
        QTest::newRow("string on a read-write lock")
            << Layout::ReadWrite << QStringList { QStringLiteral("--kind"), QStringLiteral("string") };
        QTest::newRow("waiting string on an idle fenced lock")
            << Layout::FencedIdle
            << QStringList { QStringLiteral("--kind"), QStringLiteral("string"), QStringLiteral("--wait"),
                   QStringLiteral("600000") };
    }

    void cliRefusesAndWritesNothing()
    {
        QFETCH(Layout, layout);
        QFETCH(QStringList, args);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("mismatch-cli");
        lay(raw, name, layout);
        const Snapshot before = snapshot(raw, name);
        const CliRun r = cli(QStringList { QStringLiteral("lock"), QString::fromUtf8(name), QStringLiteral("--hold"),
                                 QStringLiteral("0") }
            + args);
        CLI_EXIT(r, CliExit::NotDone);
        // A sentence for a person: the code (kind-mismatch) is --json's and the exit status's (issue 47).
        QVERIFY2(r.err.contains("cannot acquire") && !r.err.contains("kind-mismatch"), r.err.constData());
        QVERIFY2(r.err.contains(foundWords(layout).toUtf8()), r.err.constData());
        QVERIFY2(!r.out.contains("acquired"), r.out.constData());
        compareUnchanged(before, snapshot(raw, name));
    }
};

QTEST_GUILESS_MAIN(TestKindMismatch)
#include "tst_kindmismatch.moc"
