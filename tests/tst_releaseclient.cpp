// release-client: everything one client holds and waits for, released as each library would, from the command line as
// support staff run it after a pod was killed. Its holds on three layouts, a semaphore permit and its place in a fair
// queue go, every waiter behind them wakes (real waiting clients acquire), another client's holds and a hold taken
// after the report was shown stay, and the whole is one audit record with its items.
#include "clirun.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kGone = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac"; // the killed pod's client id
const QByteArray kOther = "3b994673-ac41-4c0c-8f75-1b2a04b5341e";

LockClientOptions clientOptions(const QByteArray &id)
{
    LockClientOptions o;
    o.clientId = id;
    return o;
}

AcquireRequest request(const QByteArray &name, LockMode kind, qint64 waitMs = 0, const QByteArray &token = "1")
{
    AcquireRequest r;
    r.name = name;
    r.token = token;
    r.leaseMs = 600000; // no watchdog: the pod is gone, its leases are whatever they were
    r.waitMs = waitMs;
    r.kind = kind;
    return r;
}
} // namespace

class TestReleaseClient : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QList<QJsonObject> audit() const { return auditLines(m_dir.filePath(QStringLiteral("audit.log"))); }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void aKilledClientLosesExactlyWhatItHeld()
    {
        const QByteArray p = uniqueKey("rc");
        const QByteArray orders = p + ":orders", catalog = p + ":catalog", fair = p + ":fair", queued = p + ":queued",
                         token = "lock:" + p, other = p + ":other", late = p + ":late";
        RawRedis raw(m_server.port());
        const ConnectionOptions url = ConnectionOptions::fromUrl(m_server.url());

        // The pod's holds, taken as its Redisson client would: a reentrant lock twice over, a read hold beside
        // another client's, a fair lock, a string lock; then the pod is gone (its client object with it).
        {
            LockClient pod(url, clientOptions(kGone));
            QVERIFY(acquire(pod, request(orders, LockMode::Reentrant)).acquired);
            QVERIFY(acquire(pod, request(orders, LockMode::Reentrant)).acquired);
            QVERIFY(acquire(pod, request(catalog, LockMode::Read)).acquired);
            QVERIFY(acquire(pod, request(fair, LockMode::Fair)).acquired);
            QVERIFY(acquire(pod, request(token, LockMode::String)).acquired);
        }
        LockClient others(url, clientOptions(kOther));
        QVERIFY(acquire(others, request(catalog, LockMode::Read, 0, "2")).acquired);
        QVERIFY(acquire(others, request(other, LockMode::Reentrant, 0, "2")).acquired);
        QVERIFY(acquire(others, request(queued, LockMode::Fair, 0, "2")).acquired);
        // The pod's place in a fair queue held by someone else, ahead of a live waiter (as a Java waiter leaves it).
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        raw.command({ "RPUSH", LockNames::fairQueue(queued), kGone + ":3", kOther + ":9" });
        raw.command({ "ZADD", LockNames::fairTimeouts(queued), QByteArray::number(now + 600000), kGone + ":3",
            QByteArray::number(now + 900000), kOther + ":9" });
        // A permit of a redis-semaphore semaphore whose identifier is the pod's client id, beside another client's.
        // Scored ahead of now (as a refresh would keep it), so that no wait of this test makes it look stale.
        const QByteArray permits = "semaphore:" + p;
        raw.command(
            { "ZADD", permits, QByteArray::number(now + 600000), kGone, QByteArray::number(now + 600000), kOther });
        raw.command({ "PEXPIRE", permits, "600000" });

        // Live waiters behind the pod's holds: they must wake when it is released, not at its lease's end.
        LockClient waiting(url);
        std::optional<AcquireResult> ordersWaiter, fairWaiter;
        waiting.acquire(
            request(orders, LockMode::Reentrant, 300000, "7"), [&](const AcquireResult &r) { ordersWaiter = r; });
        waiting.acquire(request(fair, LockMode::Fair, 300000, "8"), [&](const AcquireResult &r) { fairWaiter = r; });
        QTRY_VERIFY_WITH_TIMEOUT(
            raw.command({ "PUBSUB", "NUMSUB", LockNames::lockChannel(orders) }).at(1).toInteger() > 0, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(raw.command({ "LLEN", LockNames::fairQueue(fair) }).toInteger() == 1, 20000);

        // The report, at a terminal; while the person reads it the pod's client id takes one more lock (another
        // process with the same id, or the pod coming back): the report did not show it, so it stays.
        QProcess p1;
        startCliAtTerminal(p1,
            { QStringLiteral("release-client"), QString::fromUtf8(kGone), QStringLiteral("--pattern"),
                QString::fromUtf8("*" + p + "*"), QStringLiteral("--reason"), QStringLiteral("pod killed"),
                QStringLiteral("--url"), m_server.url() },
            cliEnvironment(m_dir));
        QByteArray seen;
        QTRY_VERIFY2_WITH_TIMEOUT((seen += p1.readAllStandardOutput()).contains("[y/N]"), seen.constData(), 30000);
        QVERIFY2(seen.contains("holds or waits for 6 items"), seen.constData());
        {
            LockClient back(url, clientOptions(kGone));
            QVERIFY(acquire(back, request(late, LockMode::Reentrant)).acquired);
        }
        p1.write("y\n");
        const CliRun r = finishCliAtTerminal(p1, 60000, seen);
        CLI_EXIT(r, CliExit::Done);

        // Exactly the pod's: its holds and its queue place gone, every level of the reentrant hold.
        QVERIFY(!raw.hgetall(orders).contains(kGone + ":1"));
        QVERIFY(!raw.hgetall(catalog).contains(kGone + ":1"));
        QVERIFY(raw.hgetall(catalog).contains(kOther + ":2")); // the other reader reads on
        QVERIFY(!raw.hgetall(fair).contains(kGone + ":1"));
        QVERIFY(raw.get(token).isEmpty() || raw.get(token) != kGone + ":1");
        QCOMPARE(raw.command({ "LRANGE", LockNames::fairQueue(queued), "0", "-1" }).size(), 1);
        QCOMPARE(raw.command({ "LINDEX", LockNames::fairQueue(queued), "0" }).bytes(), kOther + ":9");
        QVERIFY(raw.command({ "ZSCORE", permits, kGone }).isNil());
        QVERIFY(!raw.command({ "ZSCORE", permits, kOther }).isNil()); // the other client's permit stays
        // Others' holds, and the hold taken after the report, stay.
        QVERIFY(raw.hgetall(other).contains(kOther + ":2"));
        QVERIFY(raw.hgetall(queued).contains(kOther + ":2"));
        QVERIFY(raw.hgetall(late).contains(kGone + ":1"));
        // Every waiter woke: each got its lock long before the pod's ten-minute leases would have run out.
        QTRY_VERIFY_WITH_TIMEOUT(ordersWaiter.has_value(), 30000);
        QVERIFY(ordersWaiter->acquired);
        QTRY_VERIFY_WITH_TIMEOUT(fairWaiter.has_value(), 30000);
        QVERIFY(fairWaiter->acquired);

        // One record, with each item.
        const QJsonObject record = audit().last();
        QCOMPARE(record.value(QStringLiteral("action")).toString(), QStringLiteral("release-client"));
        QCOMPARE(record.value(QStringLiteral("client")).toString(), QString::fromUtf8(kGone));
        QCOMPARE(record.value(QStringLiteral("reason")).toString(), QStringLiteral("pod killed"));
        QCOMPARE(record.value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
        const QJsonArray items = record.value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 6);
        QSet<QString> whats;
        for (const QJsonValue &v : items) {
            const QJsonObject item = v.toObject();
            whats << item.value(QStringLiteral("what")).toString();
            const QString outcome = item.value(QStringLiteral("outcome")).toString();
            QVERIFY2(outcome == QStringLiteral("released") || outcome == QStringLiteral("deleted"),
                qPrintable(QJsonDocument(item).toJson(QJsonDocument::Compact)));
            if (item.value(QStringLiteral("name")).toString() == QString::fromUtf8(orders))
                QCOMPARE(item.value(QStringLiteral("count")).toInt(), 2);
        }
        QCOMPARE(whats,
            (QSet<QString> { QStringLiteral("hold"), QStringLiteral("read-hold"), QStringLiteral("token"),
                QStringLiteral("queue-entry") }));
    }

    void aDryRunChangesNothingAndTheReadOnlyModeRefuses()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rc-dry");
        raw.command({ "HSET", name, kGone + ":4", "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        const qsizetype records = audit().size();
        const CliRun dry
            = runCli({ QStringLiteral("release-client"), QString::fromUtf8(kGone), QStringLiteral("--dry-run"),
                         QStringLiteral("--json"), QStringLiteral("--pattern"), QString::fromUtf8(name),
                         QStringLiteral("--url"), m_server.url() },
                m_dir);
        CLI_EXIT(dry, CliExit::Done);
        const QJsonObject report = QJsonDocument::fromJson(dry.out).object();
        QCOMPARE(report.value(QStringLiteral("dry_run")).toBool(), true);
        QCOMPARE(report.value(QStringLiteral("items")).toArray().size(), 1);
        QCOMPARE(report.value(QStringLiteral("items"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("owner"))
                     .toString(),
            QString::fromUtf8(kGone + ":4"));
        QCOMPARE(raw.hgetall(name).value(kGone + ":4"), QByteArray("1"));
        QCOMPARE(audit().size(), records);

        const CliRun readOnly
            = runCli({ QStringLiteral("release-client"), QString::fromUtf8(kGone), QStringLiteral("--yes"),
                         QStringLiteral("--read-only"), QStringLiteral("--pattern"), QString::fromUtf8(name),
                         QStringLiteral("--url"), m_server.url() },
                m_dir);
        CLI_REFUSED(readOnly, CliExit::Refused, "read-only");
        QCOMPARE(raw.hgetall(name).value(kGone + ":4"), QByteArray("1"));
    }

    void aLiveHolderIsReleasedOnlyWhenThePersonInsists()
    {
        // A home-grown lock whose token names its host and process: this test's own, running here. Its holder is
        // alive, and releasing it would let a second holder in: refused, unless the person insists.
        RawRedis raw(m_server.port());
        const QByteArray name = "rc-tpl:" + uniqueKey("alive");
        const QByteArray value = "{\"actor\":\"pod-7\",\"host\":\"" + QSysInfo::machineHostName().toUtf8()
            + "\",\"pid\":" + QByteArray::number(QCoreApplication::applicationPid()) + "}";
        raw.command({ "SET", name, value, "PX", "600000" });
        const QStringList common { QStringLiteral("release-client"), QStringLiteral("pod-7"), QStringLiteral("--yes"),
            QStringLiteral("--pattern"), QString::fromUtf8(name), QStringLiteral("--owner-template"),
            QStringLiteral("rc-tpl:*=json:$.actor,host=$.host,pid=$.pid"), QStringLiteral("--url"), m_server.url() };
        const CliRun refused = runCli(common, m_dir);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("looks alive") && refused.err.contains("--even-if-alive"),
            refused.describe().constData());
        QCOMPARE(raw.get(name), value);

        const CliRun insisted = runCli(common + QStringList { QStringLiteral("--even-if-alive") }, m_dir);
        CLI_EXIT(insisted, CliExit::Done);
        QCOMPARE(raw.type(name), QByteArray("none"));
    }

    void applicationDataIsNoHold()
    {
        // A hash that merely has a field named like the client's owner is no lock: it is not offered, not touched.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("rc-data");
        raw.command({ "HSET", name, kGone + ":5", "1", "email", "a@example.org" });
        const CliRun r = runCli(
            { QStringLiteral("release-client"), QString::fromUtf8(kGone), QStringLiteral("--yes"),
                QStringLiteral("--pattern"), QString::fromUtf8(name), QStringLiteral("--url"), m_server.url() },
            m_dir);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("holds nothing"), r.describe().constData());
        QCOMPARE(raw.hgetall(name).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestReleaseClient)
#include "tst_releaseclient.moc"
