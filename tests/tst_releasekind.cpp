// Release and force release take the lock's layout from the action's one reading (Ops::inspect): its answers for
// every layout, and lockscope-cli's release and force-release using them; a fair lock whose waiter queued while the
// force-release prompt was open (the script's kind check refuses: the lock shown is no longer what is there), and a
// lock that changed hands while the prompt was open (the "y" confirms the holders shown, so nothing is deleted).
#include "clirun.h"
#include "kinds/locknames.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "ops/forcerelease.h"
#include "ops/inspect.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kWaiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42";
const QByteArray kNextHolder = "3b994673-ac41-4c0c-8f75-1b2a04b5341e:22631";

// A Java waiter as its fair acquire leaves it: queued, with a deadline ten minutes away.
void queueWaiter(RawRedis &raw, const QByteArray &name, const QByteArray &waiter)
{
    raw.command({ "RPUSH", LockNames::fairQueue(name), waiter });
    raw.command({ "ZADD", LockNames::fairTimeouts(name),
        QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), waiter });
}
} // namespace

class TestReleaseKind : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    void startCli(QProcess &p, const QStringList &args) const
    {
        Test::startCli(p, args + QStringList { QStringLiteral("--url"), m_server.url() }, m_dir);
    }

    QJsonObject lastAudit() const
    {
        QFile f(m_dir.filePath(QStringLiteral("audit.log")));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(f.readAll().trimmed().split('\n').last()).object();
    }

    LockNow reading(LockClient &client, const QByteArray &name)
    {
        return await<LockNow>([&](auto d) { Ops::inspect(&client, name, d); });
    }
    LockMode mode(LockClient &client, const QByteArray &name, const QByteArray &owner = {})
    {
        const LockNow now = reading(client, name);
        return now.error.isError() ? LockMode::Reentrant : now.actionMode(owner);
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void theReadingAnswersWhatRedisHoldsNow()
    {
        LockClient client(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("probe");
        LockNow now = reading(client, name);
        QVERIFY(!now.error.isError());
        QVERIFY(!now.lock);
        QCOMPARE(now.actionMode(), LockMode::Reentrant);
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        QCOMPARE(mode(client, name), LockMode::Reentrant);
        raw.command({ "SET", LockNames::fencingToken(name), "7" });
        QCOMPARE(mode(client, name), LockMode::Fenced);
        // A stray fair deadline beside a fencing token: still fenced, as show calls it (tst_recognition).
        raw.command({ "ZADD", LockNames::fairTimeouts(name), "1", kWaiter });
        QCOMPARE(mode(client, name), LockMode::Fenced);
        // A fair lock is known by its queue, or by its deadline set alone.
        raw.command({ "DEL", LockNames::fencingToken(name) });
        raw.command({ "ZADD", LockNames::fairTimeouts(name),
            QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), kWaiter });
        QCOMPARE(mode(client, name), LockMode::Fair);
        raw.command({ "RPUSH", LockNames::fairQueue(name), kWaiter });
        QCOMPARE(mode(client, name), LockMode::Fair);
        // The hash's own mode field wins over aux keys; the owner's ":write" picks the half.
        const QByteArray rw = uniqueKey("probe-rw");
        raw.command({ "HSET", rw, "mode", "write", kHolder + ":write", "1" });
        raw.command({ "PEXPIRE", rw, "60000" });
        QCOMPARE(mode(client, rw, kHolder + ":write"), LockMode::Write);
        QCOMPARE(mode(client, rw, kHolder), LockMode::Read);
        QCOMPARE(mode(client, rw), LockMode::Read);
        // Anything that is no lock is refused by the reading, naming what is there, and a force release of it
        // changes nothing.
        const QByteArray list = uniqueKey("probe-list");
        raw.command({ "RPUSH", list, "a" });
        now = reading(client, list);
        QCOMPARE(now.error.kind(), RedisError::Kind::KindMismatch);
        QVERIFY2(now.error.message().contains(QLatin1String("it holds a list")), qPrintable(now.error.message()));
        QCOMPARE(raw.type(list), "list");
    }

    void aForceReleaseKeepsToTheLayoutItsReadingFound()
    {
        // The reading shows a reentrant lock (a fair lock with nobody queued looks the same); a waiter queues before
        // the script runs. The same holders, another layout: refused, nothing deleted, nobody woken on the wrong
        // channel.
        LockClient client(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("kind-guard");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        const LockNow shown = reading(client, name);
        QCOMPARE(shown.actionMode(), LockMode::Reentrant);
        queueWaiter(raw, name, kWaiter);
        RawSubscriber plain(m_server.port(), LockNames::lockChannel(name));
        const ForceReleasePlan plan = ForceReleasePlan::fromReading(shown);
        const ForceReleaseDone done = await<ForceReleaseDone>([&](auto d) {
            Ops::forceRelease(&client, QStringLiteral("test"), plan, { shown.holders, 0 }, d);
        });
        QCOMPARE(done.outcome, AuditRecord::Outcome::GuardFailed);
        QVERIFY2(done.summary.contains(QLatin1String("no longer a reentrant lock")), qPrintable(done.summary));
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { kHolder, "1" } }));
        QCOMPARE(plain.next(), "none");
        // Read again, it is a fair lock, and its force release wakes the head of the queue on its own channel.
        const LockNow again = reading(client, name);
        QCOMPARE(again.actionMode(), LockMode::Fair);
        RawSubscriber head(m_server.port(), LockNames::fairChannel(name, kWaiter));
        const ForceReleaseDone forced = await<ForceReleaseDone>([&](auto d) {
            Ops::forceRelease(
                &client, QStringLiteral("test"), ForceReleasePlan::fromReading(again), { again.holders, 0 }, d);
        });
        QCOMPARE(forced.outcome, AuditRecord::Outcome::Deleted);
        QCOMPARE(head.next(), "message:0");
        // A fair lock whose queue emptied since its reading is its idle self: its script still fits.
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        const LockNow fair = reading(client, name);
        QCOMPARE(fair.actionMode(), LockMode::Fair);
        raw.command({ "DEL", LockNames::fairQueue(name), LockNames::fairTimeouts(name) });
        const ForceReleaseDone idle = await<ForceReleaseDone>([&](auto d) {
            Ops::forceRelease(
                &client, QStringLiteral("test"), ForceReleasePlan::fromReading(fair), { fair.holders, 0 }, d);
        });
        QCOMPARE(idle.outcome, AuditRecord::Outcome::Deleted);
        QCOMPARE(raw.type(name), "none");
    }

    void cliReleaseOfAFairLockTellsTheHead()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-fair-release");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        queueWaiter(raw, name, kWaiter);
        RawSubscriber head(m_server.port(), LockNames::fairChannel(name, kWaiter));
        RawSubscriber plain(m_server.port(), LockNames::lockChannel(name));
        QProcess p;
        startCli(p,
            { QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                QString::fromUtf8(kHolder) });
        CLI_EXIT(finishCli(p), CliExit::Done);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(head.next(), "message:0");
        QCOMPARE(plain.next(), "none"); // a fair release tells only the head, on its own channel
        QCOMPARE(raw.command({ "LLEN", LockNames::fairQueue(name) }).toInteger(), 1);
    }

    void cliForceReleaseRefusesWhenTheLayoutChangesAtThePrompt()
    {
        // A Java holder of a fair lock with nobody queued: it looks like any reentrant lock when the prompt shows it.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-fair-prompt");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        // The prompt needs a terminal on standard input: a pseudo-terminal whose other end the test types into.
        const int master = posix_openpt(O_RDWR | O_NOCTTY);
        QVERIFY(master >= 0);
        QVERIFY(grantpt(master) == 0 && unlockpt(master) == 0);
        QProcess p;
        p.setStandardInputFile(QString::fromLocal8Bit(ptsname(master)));
        startCli(p, { QStringLiteral("force-release"), QString::fromUtf8(name) });
        QByteArray err;
        QTRY_VERIFY2_WITH_TIMEOUT((err += p.readAllStandardError()).contains("Force-release it and wake its waiters?"),
            err.constData(), 30000);
        // While the person reads the prompt, a waiter queues behind the holder and listens on its own channel: the lock
        // is now a fair lock, not the one shown. Nothing is deleted (a reentrant release would wake nobody on the
        // waiter's channel); the person is told to run it again, and then it is released as the fair lock it is.
        queueWaiter(raw, name, kWaiter);
        RawSubscriber head(m_server.port(), LockNames::fairChannel(name, kWaiter));
        QCOMPARE(::write(master, "y\n", 2), 2);
        const CliRun r = finishCli(p, 30000, CliWait::Blocking, err);
        ::close(master);
        CLI_REFUSED(r, CliExit::NotDone,
            name
                + " changed after it was shown (the same holders, but it is no longer a reentrant lock); nothing "
                  "changed. Run the command again to confirm what is there now");
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { kHolder, "1" } }));
        QCOMPARE(head.next(), "none");
        QProcess again;
        startCli(again, { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") });
        CLI_EXIT(finishCli(again), CliExit::Done);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(head.next(), "message:0");
        QCOMPARE(raw.command({ "LLEN", LockNames::fairQueue(name) }).toInteger(), 1); // forceUnlock keeps the queue
    }

    void cliForceReleaseOfAReadWriteLockWakesItsWaiters()
    {
        // A writer's lock: its waiters listen on the read-write channel and hear "1", never the plain lock channel.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-rw-force");
        raw.command({ "HSET", name, "mode", "write", kHolder + ":write", "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        RawSubscriber rw(m_server.port(), LockNames::rwChannel(name));
        RawSubscriber plain(m_server.port(), LockNames::lockChannel(name));
        QProcess p;
        startCli(p, { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") });
        CLI_EXIT(finishCli(p), CliExit::Done);
        QCOMPARE(raw.type(name), "none");
        QCOMPARE(rw.next(), "message:1");
        QCOMPARE(plain.next(), "none");
        // Its read half: "0", on the same channel.
        raw.command({ "HSET", name, "mode", "read", kHolder, "2" });
        raw.command({ "PEXPIRE", name, "60000" });
        QProcess again;
        startCli(again, { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") });
        CLI_EXIT(finishCli(again), CliExit::Done);
        QCOMPARE(rw.next(), "message:0");
        QCOMPARE(plain.next(), "none");
    }

    void cliForceReleaseRefusesWhenTheHoldersChangeAtThePrompt()
    {
        // The person is shown one holder; while they read the prompt, that hold ends and another client takes the
        // lock. Their "y" confirms the holder they saw, not whoever holds it now: nothing is deleted, and nobody
        // is woken.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("cli-prompt-changed");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        // The prompt needs a terminal on standard input: a pseudo-terminal whose other end the test types into.
        const int master = posix_openpt(O_RDWR | O_NOCTTY);
        QVERIFY(master >= 0);
        QVERIFY(grantpt(master) == 0 && unlockpt(master) == 0);
        QProcess p;
        p.setStandardInputFile(QString::fromLocal8Bit(ptsname(master)));
        startCli(p, { QStringLiteral("force-release"), QString::fromUtf8(name) });
        QByteArray err;
        QTRY_VERIFY2_WITH_TIMEOUT((err += p.readAllStandardError()).contains("Force-release it and wake its waiters?"),
            err.constData(), 30000);
        QVERIFY2(err.contains(kHolder), err.constData()); // the holder shown
        RawSubscriber plain(m_server.port(), LockNames::lockChannel(name));
        raw.command({ "MULTI" });
        raw.command({ "DEL", name });
        raw.command({ "HSET", name, kNextHolder, "1" });
        raw.command({ "PEXPIRE", name, "60000" });
        raw.command({ "EXEC" });
        QCOMPARE(::write(master, "y\n", 2), 2);
        const CliRun r = finishCli(p, 30000, CliWait::Blocking, err);
        ::close(master);
        CLI_REFUSED(r, CliExit::NotDone,
            name + " changed after it was shown (held by " + kHolder + ", now by " + kNextHolder
                + "); nothing changed");
        QCOMPARE(raw.hgetall(name), (QMap<QByteArray, QByteArray> { { kNextHolder, "1" } }));
        QVERIFY(raw.pttl(name) > 50000);
        QCOMPARE(plain.next(), "none");
        // Audited as the guard that stopped it.
        const QJsonObject audit = lastAudit();
        QCOMPARE(audit.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(audit.value(QStringLiteral("outcome")).toString(), QStringLiteral("guard-failed"));
        QCOMPARE(audit.value(QStringLiteral("expect_holders")).toArray(), QJsonArray { QString::fromUtf8(kHolder) });
        QCOMPARE(audit.value(QStringLiteral("holders_now")).toArray(), QJsonArray { QString::fromUtf8(kNextHolder) });
    }
};

QTEST_GUILESS_MAIN(TestReleaseKind)
#include "tst_releasekind.moc"
