// What keeps a lock from being taken: `lockscope-cli stuck` applies the console's Stuck rules to locks written raw, as
// their libraries (or their crashed clients) leave them, and names the deadlocks among fair locks' queued waiters.
// One entry per problem, in conventions.md's words (`queue-jammed`, not the rules' own `jammed-queue`); a healthy
// lock and application data give none. Nothing here waits on time: every lock's state is written before the run.
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <tuple>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kOther = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42";

QByteArray queueOf(const QByteArray &name)
{
    return "redisson_lock_queue:{" + name + "}";
}

QByteArray timeoutOf(const QByteArray &name)
{
    return "redisson_lock_timeout:{" + name + "}";
}
} // namespace

class TestStuck : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    CliRun cli(const QStringList &args) const
    {
        return runCli(args + QStringList { QStringLiteral("--url"), m_server.url() }, m_dir);
    }
    // stuck --json over the names starting with prefix; an empty object (the test has failed) unless it exits 0 with
    // one JSON object.
    QJsonObject stuck(const QByteArray &prefix, const QStringList &extra = {}) const
    {
        const CliRun r = cli(QStringList { QStringLiteral("stuck"), QStringLiteral("--json"),
                                 QStringLiteral("--pattern"), QString::fromUtf8(prefix) + QStringLiteral("*") }
            + extra);
        if (!cliExited(r, CliExit::Done, {}, __FILE__, __LINE__))
            return {};
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            QTest::qFail(("stuck did not print one JSON object; " + r.describe()).constData(), __FILE__, __LINE__);
            return {};
        }
        return doc.object();
    }
    static QJsonArray entries(const QJsonObject &answer) { return answer.value(QStringLiteral("stuck")).toArray(); }
    static QStringList problems(const QJsonObject &answer)
    {
        QStringList out;
        for (const QJsonValue &e : entries(answer))
            out << e.toObject().value(QStringLiteral("problem")).toString();
        return out;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void aHeldLockWithNoTtlNeverExpires()
    {
        // A reentrant lock whose TTL someone removed (or a writer never set): if its holder died it is held for ever.
        const QByteArray name = uniqueKey("stuck-nottl") + ":orders";
        RawRedis raw(m_server.port());
        QCOMPARE(raw.command({ "HSET", name, kHolder, "1" }).toInteger(), 1);
        const QJsonObject answer = stuck(name);
        QCOMPARE(problems(answer), QStringList { QStringLiteral("never-expires") });
        const QJsonObject e = entries(answer).first().toObject();
        QCOMPARE(e.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(e.value(QStringLiteral("holder")).toString(), QString::fromUtf8(kHolder));
        QCOMPARE(e.value(QStringLiteral("fix")).toString(), QStringLiteral("force-release"));
        QVERIFY(!answer.contains(QStringLiteral("partial")));
        // stuck only reads.
        QCOMPARE(raw.pttl(name), -1);
    }

    void theTextSaysOneLinePerProblem()
    {
        const QByteArray name = uniqueKey("stuck-text") + ":orders";
        RawRedis raw(m_server.port());
        raw.command({ "HSET", name, kHolder, "1" });
        QProcessEnvironment env = cliEnvironment(m_dir);
        env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
        env.remove(QStringLiteral("LC_ALL"));
        const CliRun r = runCli({ QStringLiteral("stuck"), QStringLiteral("--pattern"), QString::fromUtf8(name),
                                    QStringLiteral("--url"), m_server.url() },
            env);
        CLI_EXIT(r, CliExit::Done);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().startsWith(name + "  held with no TTL"), r.out.constData());
        QVERIFY2(lines.first().contains("since unknown  holder " + kHolder), r.out.constData());
        QVERIFY2(lines.first().contains("fix: force release it"), r.out.constData());

        // Nothing stuck: said so, still exit 0.
        const CliRun none
            = runCli({ QStringLiteral("stuck"), QStringLiteral("--pattern"),
                         QString::fromUtf8(uniqueKey("stuck-nothing")), QStringLiteral("--url"), m_server.url() },
                env);
        CLI_EXIT(none, CliExit::Done);
        QCOMPARE(none.out.trimmed(), QByteArray("no stuck locks"));
    }

    void aDeadHeadOfAFreeFairQueueJamsIt()
    {
        // A fair lock nobody holds whose head's deadline passed (its client died while it waited): every fair
        // acquire waits behind it. Written as Redisson leaves it.
        const QByteArray name = uniqueKey("stuck-jam") + ":jobs";
        RawRedis raw(m_server.port());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        raw.command({ "RPUSH", queueOf(name), kHolder, kOther });
        raw.command({ "ZADD", timeoutOf(name), QByteArray::number(now - 60000), kHolder,
            QByteArray::number(now + 600000), kOther });
        const QJsonObject answer = stuck(name);
        QCOMPARE(problems(answer), QStringList { QStringLiteral("queue-jammed") });
        const QJsonObject e = entries(answer).first().toObject();
        QCOMPARE(e.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(e.value(QStringLiteral("fix")).toString(), QStringLiteral("repair-queue"));
        QVERIFY(e.value(QStringLiteral("holder")).isNull()); // nobody holds it
        QCOMPARE(raw.command({ "LLEN", queueOf(name) }).toInteger(), 2);
    }

    void aHealthyLockIsNotStuck()
    {
        // Held with a lease, a live head queued behind it: nothing to fix.
        const QByteArray name = uniqueKey("stuck-healthy") + ":orders";
        RawRedis raw(m_server.port());
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        raw.command({ "RPUSH", queueOf(name), kOther });
        raw.command(
            { "ZADD", timeoutOf(name), QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), kOther });
        // Listed as a lock (so stuck saw it and found nothing), not missed.
        const auto listed = listedLocks(m_server.url(), m_dir, QString::fromUtf8(name));
        QVERIFY(listed);
        QVERIFY(listed->contains(QString::fromUtf8(name)));
        const QJsonObject answer = stuck(name);
        QVERIFY2(entries(answer).isEmpty(), QJsonDocument(answer).toJson().constData());
        QVERIFY(answer.contains(QStringLiteral("stuck")));
        QVERIFY(!answer.contains(QStringLiteral("partial")));
    }

    void applicationDataIsNotStuck()
    {
        // A plain hash with no TTL is no lock held for ever: no entry at all.
        const QByteArray name = uniqueKey("stuck-data") + ":user";
        RawRedis raw(m_server.port());
        raw.command({ "HSET", name, "name", "alice", "visits", "3" });
        const QJsonObject answer = stuck(name);
        QVERIFY2(entries(answer).isEmpty(), QJsonDocument(answer).toJson().constData());
    }

    void everyEntryHasEveryField()
    {
        const QByteArray prefix = uniqueKey("stuck-shape") + ":";
        RawRedis raw(m_server.port());
        raw.command({ "HSET", prefix + "held", kHolder, "2" });
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        raw.command({ "RPUSH", queueOf(prefix + "jammed"), kOther });
        raw.command({ "ZADD", timeoutOf(prefix + "jammed"), QByteArray::number(now - 1000), kOther });
        const QJsonObject answer = stuck(prefix);
        QCOMPARE(entries(answer).size(), 2);
        for (const QJsonValue &v : entries(answer)) {
            const QJsonObject e = v.toObject();
            for (const char *key : { "name", "problem", "since", "holder", "fix" })
                QVERIFY2(e.contains(QLatin1String(key)), key);
            QVERIFY(e.value(QStringLiteral("name")).isString());
            QVERIFY(e.value(QStringLiteral("problem")).isString());
            QVERIFY(e.value(QStringLiteral("fix")).isString());
            // One read knows neither hold's start: null, never a made-up time.
            QVERIFY(e.value(QStringLiteral("since")).isNull());
            QVERIFY(e.value(QStringLiteral("holder")).isString() || e.value(QStringLiteral("holder")).isNull());
        }
        QVERIFY(answer.value(QStringLiteral("observed_ms")).isDouble());
    }

    void twoFairLocksWaitingForEachOtherAreADeadlock()
    {
        // A holds left and waits in right's queue; B holds right and waits in left's: each lock is one entry.
        const QByteArray prefix = uniqueKey("stuck-ring") + ":";
        const QByteArray left = prefix + "left", right = prefix + "right";
        RawRedis raw(m_server.port());
        const QByteArray later = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000);
        for (const auto &[lock, holder, waiter] :
            { std::tuple { left, kHolder, kOther }, std::tuple { right, kOther, kHolder } }) {
            raw.command({ "HSET", lock, holder, "1" });
            raw.command({ "PEXPIRE", lock, "600000" });
            raw.command({ "RPUSH", queueOf(lock), waiter });
            raw.command({ "ZADD", timeoutOf(lock), later, waiter });
        }
        const QJsonObject answer = stuck(prefix);
        QCOMPARE(problems(answer), (QStringList { QStringLiteral("deadlock"), QStringLiteral("deadlock") }));
        QHash<QString, QString> holderOf;
        for (const QJsonValue &v : entries(answer))
            holderOf.insert(v.toObject().value(QStringLiteral("name")).toString(),
                v.toObject().value(QStringLiteral("holder")).toString());
        QCOMPARE(holderOf.value(QString::fromUtf8(left)), QString::fromUtf8(kHolder));
        QCOMPARE(holderOf.value(QString::fromUtf8(right)), QString::fromUtf8(kOther));
    }

    void anObservationSeesTheSameLocks()
    {
        // --observe watches the locks first (a monitor), then answers from what it saw: a lock with no TTL is still
        // one that never expires, a healthy one still gives nothing.
        const QByteArray prefix = uniqueKey("stuck-observe") + ":";
        RawRedis raw(m_server.port());
        raw.command({ "HSET", prefix + "forever", kHolder, "1" });
        raw.command({ "HSET", prefix + "leased", kOther, "1" });
        raw.command({ "PEXPIRE", prefix + "leased", "600000" });
        const QJsonObject answer = stuck(prefix, { QStringLiteral("--observe"), QStringLiteral("300") });
        QCOMPARE(problems(answer), QStringList { QStringLiteral("never-expires") });
        QCOMPARE(entries(answer).first().toObject().value(QStringLiteral("name")).toString(),
            QString::fromUtf8(prefix + "forever"));
        // Held before the watching began: the monitor's first sight of it is not when it began.
        QVERIFY(entries(answer).first().toObject().value(QStringLiteral("since")).isNull());
        QCOMPARE(answer.value(QStringLiteral("observed_ms")).toInt(), 300);
    }

    void aBadObserveIsAUsageError()
    {
        const CliRun r = cli({ QStringLiteral("stuck"), QStringLiteral("--observe"), QStringLiteral("soon") });
        CLI_REFUSED(r, CliExit::Usage, "--observe");
    }

    // A partial answer (a node that could not be read) needs a Redis Cluster with a master stopped: the scanner's
    // partialOnNodeFailure is what blockers and list share, and tst_clusterlist holds it to that.
};

QTEST_GUILESS_MAIN(TestStuck)
#include "tst_stuck.moc"
