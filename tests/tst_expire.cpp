// expire: a lease for a lock that has none, or a longer one for a holder that overruns, as a person gives it through
// lockscope-cli: guarded by the holders shown (or the owner named), never shortening a lease, audited with its reason,
// and refused on anything that is no lock.
#include "clirun.h"
#include "kinds/locknames.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kOther = "3b994673-ac41-4c0c-8f75-1b2a04b5341e:22631";
} // namespace

class TestExpire : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    CliRun cli(const QStringList &args) const
    {
        return runCli(args + QStringList { QStringLiteral("--url"), m_server.url() }, m_dir);
    }
    QList<QJsonObject> audit() const { return auditLines(m_dir.filePath(QStringLiteral("audit.log"))); }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void aLockWithoutALeaseGetsOneAndExpires()
    {
        // A holder that died with its watchdog's lease removed (or a foreign writer that never set one): nothing would
        // ever free it. Given a lease, it expires on its own, and its waiters' own timeouts take over.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("no-ttl");
        raw.command({ "HSET", name, kHolder, "2" });
        QCOMPARE(raw.pttl(name), qint64(-1));
        const CliRun r = cli(
            { QStringLiteral("expire"), QString::fromUtf8(name), QStringLiteral("--lease"), QStringLiteral("3000"),
                QStringLiteral("--yes"), QStringLiteral("--reason"), QStringLiteral("holder gone, INC-4711") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.err.contains("now expires in 3000 ms") || r.out.contains("now expires in 3000 ms"),
            r.describe().constData());
        const qint64 ttl = raw.pttl(name);
        QVERIFY2(ttl > 0 && ttl <= 3000, QByteArray::number(ttl).constData());
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { kHolder, "2" } })); // the hold as it was
        QTRY_COMPARE_WITH_TIMEOUT(raw.type(name), QByteArray("none"), 30000);

        const QJsonObject record = audit().last();
        QCOMPARE(record.value(QStringLiteral("action")).toString(), QStringLiteral("expire"));
        QCOMPARE(record.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(record.value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
        QCOMPARE(record.value(QStringLiteral("lease_ms")).toInteger(), 3000);
        QCOMPARE(record.value(QStringLiteral("ttl_before")).toInteger(), -1);
        QCOMPARE(record.value(QStringLiteral("reason")).toString(), QStringLiteral("holder gone, INC-4711"));
        QCOMPARE(record.value(QStringLiteral("guard")).toString(), QStringLiteral("shown-holders"));
        QCOMPARE(record.value(QStringLiteral("expect_holders")).toArray(), QJsonArray { QString::fromUtf8(kHolder) });
        QCOMPARE(
            record.value(QStringLiteral("holders_before")).toArray().first().toObject().value(QStringLiteral("count")),
            QJsonValue(2));
    }

    void aWrongOwnerIsRefused()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("wrong-owner");
        raw.command({ "HSET", name, kHolder, "1" });
        const qsizetype before = audit().size();
        const CliRun r = cli(
            { QStringLiteral("expire"), QString::fromUtf8(name), QStringLiteral("--lease"), QStringLiteral("60000"),
                QStringLiteral("--expect-owner"), QString::fromUtf8(kOther), QStringLiteral("--yes") });
        CLI_REFUSED(r, CliExit::NotDone, "is not held by " + kOther + " (held by " + kHolder + "); nothing changed");
        QCOMPARE(raw.pttl(name), qint64(-1));
        QCOMPARE(audit().size(), before + 1); // audited as the guard that stopped it
        QCOMPARE(audit().last().value(QStringLiteral("outcome")).toString(), QStringLiteral("guard-failed"));
        QCOMPARE(audit().last().value(QStringLiteral("expect_owner")).toString(), QString::fromUtf8(kOther));

        // The right owner, named: its lease is set.
        const CliRun ok = cli(
            { QStringLiteral("expire"), QString::fromUtf8(name), QStringLiteral("--lease"), QStringLiteral("60000"),
                QStringLiteral("--expect-owner"), QString::fromUtf8(kHolder), QStringLiteral("--yes") });
        CLI_EXIT(ok, CliExit::Done);
        QVERIFY(raw.pttl(name) > 50000);
    }

    void aLeaseIsExtendedButNeverShortened()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("overrun");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        const qsizetype before = audit().size();
        const CliRun shorter = cli({ QStringLiteral("expire"), QString::fromUtf8(name), QStringLiteral("--lease"),
            QStringLiteral("1000"), QStringLiteral("--yes") });
        CLI_REFUSED(shorter, CliExit::NotDone, "a lease is never shortened; nothing changed");
        QVERIFY(raw.pttl(name) > 500000);
        QCOMPARE(audit().size(), before); // nothing attempted

        const CliRun longer = cli({ QStringLiteral("expire"), QString::fromUtf8(name), QStringLiteral("--lease"),
            QStringLiteral("3600000"), QStringLiteral("--yes") });
        CLI_EXIT(longer, CliExit::Done);
        QVERIFY(raw.pttl(name) > 3000000);
    }

    void aStringLockKeepsToItsToken()
    {
        // A string lock's guard is its one token: the lease goes to that holder's key and no other's.
        RawRedis raw(m_server.port());
        const QByteArray name = "lock:" + uniqueKey("string");
        raw.command({ "SET", name, "tok-a1b2c3d4e5f6", "PX", "5000" });
        const CliRun r = cli({ QStringLiteral("expire"), QString::fromUtf8(name), QStringLiteral("--lease"),
            QStringLiteral("600000"), QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY(raw.pttl(name) > 500000);
        QCOMPARE(audit().last().value(QStringLiteral("kind")).toString(), QStringLiteral("string"));
    }

    void nothingButALockIsTouched_data()
    {
        QTest::addColumn<QList<QByteArray>>("write");
        QTest::newRow("an application's hash") << QList<QByteArray> { "HSET", "NAME", "email", "a@example.org" };
        QTest::newRow("a list") << QList<QByteArray> { "RPUSH", "NAME", "a" };
        QTest::newRow("a counter") << QList<QByteArray> { "SET", "NAME", "5" };
    }

    void nothingButALockIsTouched()
    {
        QFETCH(QList<QByteArray>, write);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("data");
        for (QByteArray &arg : write)
            if (arg == "NAME")
                arg = name;
        raw.command(write);
        const qsizetype before = audit().size();
        const CliRun r = cli({ QStringLiteral("expire"), QString::fromUtf8(name), QStringLiteral("--lease"),
            QStringLiteral("1000"), QStringLiteral("--yes") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("not a lock") || r.err.contains("no lock"), r.describe().constData());
        QCOMPARE(raw.pttl(name), qint64(-1));
        QCOMPARE(audit().size(), before);
    }

    void theHoldersShownAreTheGuard()
    {
        // Read at a prompt: while the person reads it, the hold changes hands. Their "y" is for the holder shown.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("changed");
        raw.command({ "HSET", name, kHolder, "1" });
        QProcess p;
        startCliAtTerminal(p,
            { QStringLiteral("expire"), QString::fromUtf8(name), QStringLiteral("--lease"), QStringLiteral("60000"),
                QStringLiteral("--url"), m_server.url() },
            cliEnvironment(m_dir));
        QByteArray seen;
        QTRY_VERIFY2_WITH_TIMEOUT((seen += p.readAllStandardOutput()).contains("[y/N]"), seen.constData(), 30000);
        QVERIFY2(seen.contains(kHolder), seen.constData());
        raw.command({ "DEL", name });
        raw.command({ "HSET", name, kOther, "1" });
        p.write("y\n");
        const CliRun r = finishCliAtTerminal(p, 30000, seen);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("changed after it was shown"), r.out.constData());
        QCOMPARE(raw.pttl(name), qint64(-1));
        QCOMPARE(audit().last().value(QStringLiteral("outcome")).toString(), QStringLiteral("guard-failed"));
        QCOMPARE(
            audit().last().value(QStringLiteral("holders_now")).toArray(), QJsonArray { QString::fromUtf8(kOther) });
    }
};

QTEST_GUILESS_MAIN(TestExpire)
#include "tst_expire.moc"
