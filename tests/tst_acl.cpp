// The least privilege the README documents, on a real server: a console user with only the categories listed
// there takes, releases and force-releases every kind of lock and runs the monitor; the monitor user's rights
// (reads, pub/sub, PING, INFO, CONFIG GET) run every monitor feature and refuse every write with a clear
// permission error that changes nothing.
#include "aclrules.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
QStringList users()
{
    QStringList args { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx"), QStringLiteral("--user"),
        QStringLiteral("console"), QStringLiteral("on"), QStringLiteral(">consolepw") };
    args << kConsoleRules << QStringLiteral("--user") << QStringLiteral("monitor") << QStringLiteral("on")
         << QStringLiteral(">monpw") << kMonitorRules;
    // Neither INFO nor CLUSTER: the client cannot ask what the server is, and must still work on a single server.
    QStringList blind = kConsoleRules;
    blind.removeAll(QStringLiteral("+info"));
    blind.removeAll(QStringLiteral("+cluster|shards"));
    blind.removeAll(QStringLiteral("+cluster|slots"));
    args << QStringLiteral("--user") << QStringLiteral("blind") << QStringLiteral("on") << QStringLiteral(">blindpw")
         << blind;
    return args;
}

ConnectionOptions as(const QString &url, const QByteArray &user, const QByteArray &password)
{
    ConnectionOptions o = ConnectionOptions::fromUrl(url);
    o.user = user;
    o.password = password;
    return o;
}

AcquireRequest request(const QByteArray &name, LockMode kind)
{
    AcquireRequest r;
    r.name = name;
    r.kind = kind;
    r.token = "1";
    return r; // the watchdog renews: its script needs the same rights
}
} // namespace

class TestAcl : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions { users() } };

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void consoleUserDoesEverything()
    {
        LockClient console(as(m_server.url(), "console", "consolepw"));
        const QByteArray p = uniqueKey("acl-console") + ":";
        MonitorWatch w(as(m_server.url(), "console", "consolepw"), [&] {
            LockMonitor::Options o;
            o.pattern = p + "*";
            return o;
        }());
        QVERIFY(w.start());
        QCOMPARE(w.monitor.mode(), LockEventFeed::Mode::KeyspaceEvents);
        for (const auto &[kind, suffix] : { std::pair { LockMode::Reentrant, "reentrant" },
                 std::pair { LockMode::Fenced, "fenced" }, std::pair { LockMode::Fair, "fair" },
                 std::pair { LockMode::Read, "read" }, std::pair { LockMode::Write, "write" } }) {
            const QByteArray name = p + suffix;
            const AcquireResult a = acquire(console, request(name, kind));
            QVERIFY2(a.acquired, qPrintable(QString::fromLatin1(suffix) + QLatin1Char(' ') + a.error.toString()));
            QVERIFY(w.waitFor(LockEvent::Type::Acquired, name));
            const ReleaseResult r = release(console, name, a.owner, kind);
            QVERIFY2(r.outcome == ReleaseResult::Outcome::Released, qPrintable(r.error.toString()));
        }
        const AcquireResult held = acquire(console, request(p + "forced", LockMode::Reentrant));
        QVERIFY(held.acquired);
        LockClient other(as(m_server.url(), "console", "consolepw"));
        const ForceReleaseResult f = await<ForceReleaseResult>(
            [&](auto d) { other.forceRelease(p + "forced", ForceGuard {}, d, LockMode::Reentrant); });
        QVERIFY2(f.deleted, qPrintable(f.error.toString()));
        QVERIFY2(w.errors.isEmpty(), qPrintable(w.errors.join(QLatin1Char('\n'))));
    }

    void withoutInfoOrClusterRights()
    {
        RawRedis admin(m_server.port());
        QCOMPARE(RawRedis(m_server.port(), "blind", "blindpw").command({ "INFO" }).isError(), true);
        LockClient client(as(m_server.url(), "blind", "blindpw"));
        const QByteArray name = uniqueKey("acl-blind");
        const AcquireResult a = acquire(client, request(name, LockMode::Reentrant));
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        QCOMPARE(admin.hgetall(name).value(a.owner), "1");
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(admin.type(name), "none");
    }

    void monitorUserReadsAndIsRefusedWrites()
    {
        RawRedis admin(m_server.port());
        const QByteArray name = uniqueKey("acl-monitor");
        admin.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        admin.command({ "PEXPIRE", name, "60000" });
        const ConnectionOptions monitorUser = as(m_server.url(), "monitor", "monpw");
        MonitorWatch w(monitorUser, [&] {
            LockMonitor::Options o;
            o.pattern = name;
            return o;
        }());
        QVERIFY(w.start());
        QCOMPARE(w.monitor.lockCount(), 1);
        QCOMPARE(w.monitor.mode(), LockEventFeed::Mode::KeyspaceEvents);

        LockClient client(monitorUser);
        const ForceReleaseResult f = await<ForceReleaseResult>(
            [&](auto d) { client.forceRelease(name, ForceGuard {}, d, LockMode::Reentrant); });
        QCOMPARE(f.error.kind(), RedisError::Kind::Permission);
        const AcquireResult a = acquire(client, request(uniqueKey("acl-denied"), LockMode::Reentrant));
        QCOMPARE(a.error.kind(), RedisError::Kind::Permission);
        QCOMPARE(admin.type(name), "hash");
        QVERIFY(admin.pttl(name) > 0);
    }

    void monitorUserWatchesAnotherDatabase()
    {
        RawRedis admin(m_server.port());
        admin.command({ "SELECT", "1" });
        const QByteArray name = uniqueKey("acl-db1");
        admin.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        admin.command({ "PEXPIRE", name, "60000" });
        ConnectionOptions monitorUser = as(m_server.url(), "monitor", "monpw");
        monitorUser.db = 1;
        MonitorWatch w(monitorUser, [&] {
            LockMonitor::Options o;
            o.pattern = name;
            return o;
        }());
        QVERIFY(w.start());
        QCOMPARE(w.monitor.lockCount(), 1);
        QVERIFY2(w.errors.isEmpty(), qPrintable(w.errors.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestAcl)
#include "tst_acl.moc"
