// What the CLI's list, show and watch report is true (issue 15): a stuck lock without TTL, look-alike user data at
// low confidence with a warning before a release or force release, a transactional write lock, an orphaned fair
// queue, and a counter that is refused as "not a lock".
#include "clirun.h"
#include "kinds/locknames.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kJavaOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
} // namespace

class TestCliShows : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    void startCli(QProcess &p, const QStringList &args) const { Test::startCli(p, args, m_dir); }
    using Run = CliRun;
    Run cli(const QStringList &args, const QByteArray &input = {}) { return runCli(args, m_dir, input); }
    QStringList url() const { return { QStringLiteral("--url"), m_server.url() }; }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void whatTheMonitorShowsIsTrue()
    {
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("cli-trust") + ":";
        const QString pattern = QLatin1Char('*') + QString::fromUtf8(p) + QLatin1Char('*');
        const QByteArray waiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:12";
        const QByteArray pool = "lock:" + p + "pool";
        QProcess watch;
        startCli(watch,
            QStringList { QStringLiteral("watch"), QStringLiteral("--pattern"), pattern, QStringLiteral("--interval"),
                QStringLiteral("100") }
                + url());
        QByteArray watchOut; // text mode: status and events on stdout, warnings on stderr
        QTRY_VERIFY_WITH_TIMEOUT((watchOut += watch.readAllStandardOutput()).contains("watching 0 lock"), 10000);
        QByteArray watchErr;

        raw.command({ "HSET", p + "stuck", kJavaOwner, "1" });
        raw.command({ "HSET", p + "session", kJavaOwner, "1" });
        raw.command({ "PEXPIRE", p + "session", "60000" });
        raw.command({ "SET", pool, "5", "PX", "60000" });
        raw.command({ "HSET", p + "tx", "mode", "write", kJavaOwner + ":write:0123456789abcdef0123456789abcdef", "1" });
        raw.command({ "PEXPIRE", p + "tx", "60000" });
        raw.command({ "RPUSH", "redisson_lock_queue:{" + p + "orphan}", waiter });
        raw.command({ "ZADD", "redisson_lock_timeout:{" + p + "orphan}", "1000", waiter });

        const Run listed
            = cli(QStringList { QStringLiteral("list"), QStringLiteral("--pattern"), pattern, QStringLiteral("--json") }
                + url());
        CLI_EXIT(listed, CliExit::Done);
        QMap<QString, QJsonObject> locks;
        for (const QJsonValue &v : QJsonDocument::fromJson(listed.out).array())
            locks.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
        const QString n = QString::fromUtf8(p);
        QCOMPARE(locks.keys(), (QStringList { n + "orphan", n + "session", n + "stuck", n + "tx" }));
        const QJsonObject stuck = locks.value(n + "stuck");
        QCOMPARE(stuck.value(QStringLiteral("ttl_ms")).toInt(), -1);
        QCOMPARE(stuck.value(QStringLiteral("confidence")).toString(), QStringLiteral("low"));
        QVERIFY(stuck.value(QStringLiteral("warnings"))
                    .toArray()
                    .at(0)
                    .toString()
                    .contains(QLatin1String("never expires")));
        QCOMPARE(locks.value(n + "session").value(QStringLiteral("confidence")).toString(), QStringLiteral("low"));
        QCOMPARE(locks.value(n + "tx").value(QStringLiteral("kind")).toString(), QStringLiteral("readwrite"));
        QCOMPARE(locks.value(n + "tx").value(QStringLiteral("mode")).toString(), QStringLiteral("write"));
        const QJsonObject orphan = locks.value(n + "orphan");
        QCOMPARE(orphan.value(QStringLiteral("kind")).toString(), QStringLiteral("fair"));
        QCOMPARE(orphan.value(QStringLiteral("holders")).toArray().size(), 0);
        QCOMPARE(orphan.value(QStringLiteral("queue")).toArray().size(), 1);
        QVERIFY(QJsonDocument(orphan.value(QStringLiteral("warnings")).toArray()).toJson().contains("orphaned"));

        Run r = cli(QStringList { QStringLiteral("show"), n + "stuck" } + url());
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("never expires"), r.out.constData());
        r = cli(QStringList { QStringLiteral("show"), n + "session" } + url());
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("confidence low"), r.out.constData());
        r = cli(QStringList { QStringLiteral("show"), n + "orphan" } + url());
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("repair-queue"), r.out.constData());
        r = cli(QStringList { QStringLiteral("show"), QString::fromUtf8(pool) } + url());
        CLI_REFUSED(r, CliExit::NotDone, "integer");

        // A counter is never deleted as a lock.
        r = cli(
            QStringList { QStringLiteral("force-release"), QString::fromUtf8(pool), QStringLiteral("--yes") } + url());
        CLI_REFUSED(r, CliExit::NotDone, "not a lock");
        QCOMPARE(raw.command({ "GET", pool }).bytes(), "5");

        // Acting on a low-confidence lock: said on stderr first, then done.
        r = cli(QStringList { QStringLiteral("release"), n + "session", QStringLiteral("--owner"),
                    QString::fromLatin1(kJavaOwner) }
            + url());
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.err.contains("low confidence: this may be application data"), r.err.constData());
        raw.command({ "HSET", p + "session", kJavaOwner, "1" });
        raw.command({ "PEXPIRE", p + "session", "60000" });
        r = cli(QStringList { QStringLiteral("force-release"), n + "session", QStringLiteral("--yes") } + url());
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.err.contains("low confidence"), r.err.constData());
        r = cli(
            QStringList { QStringLiteral("force-release"), n + "tx", QStringLiteral("--yes"), QStringLiteral("--json") }
            + url());
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(!r.err.contains("low confidence"), r.err.constData()); // JSON mode: scripts read show's confidence

        // watch says what is wrong with each as it appears.
        QTRY_VERIFY_WITH_TIMEOUT((watchErr += watch.readAllStandardError()).contains("never expires"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT((watchErr += watch.readAllStandardError()).contains("orphaned"), 10000);
        watch.terminate();
        const Run watched = finishCli(watch, 10000);
        CLI_EXIT(watched, CliExit::Done);
        watchOut += watched.out;
        QVERIFY2(watchOut.contains("stuck") && !watchOut.contains("pool"), watchOut.constData()); // no counter
    }
};

QTEST_GUILESS_MAIN(TestCliShows)
#include "tst_clishows.moc"
