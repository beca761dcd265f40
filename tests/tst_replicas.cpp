// Replica acknowledgement (docs/protocol/README.md#replica-acknowledgement) on a real master and replica: lock writes
// are followed by WAIT for the master's replicas, and an acquire that none of them acknowledged in time is undone and
// reported, as Redisson's checkLockSyncedSlaves does; a stalled replica (SIGSTOP: its link stays open, it answers
// nothing) is the case.
#include "clirun.h"
#include "faultproxy.h"
#include "lock/lockclient.h"
#include "lockawait.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <signal.h>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// Long enough for a live replica on a loaded machine (its WAIT answers within it), short enough for the stopped-replica
// cases, which wait it out, to stay quick.
constexpr int kSyncTimeoutMs = 3000;

AcquireRequest plain(const QByteArray &name)
{
    AcquireRequest r;
    r.name = name;
    r.token = "1";
    r.leaseMs = 30000;
    return r;
}

qint64 waitCalls(RawRedis &raw)
{
    const QByteArray stats = raw.command({ "INFO", "commandstats" }).bytes();
    const int at = stats.indexOf("cmdstat_wait:calls=");
    if (at < 0)
        return 0;
    const int from = at + int(qstrlen("cmdstat_wait:calls="));
    return stats.mid(from, stats.indexOf(',', from) - from).toLongLong();
}

// Resumes a stalled replica whatever way the test ends.
struct Stalled
{
    explicit Stalled(qint64 pid)
        : pid(pid)
    {
        ::kill(pid_t(pid), SIGSTOP);
    }
    ~Stalled() { ::kill(pid_t(pid), SIGCONT); }
    qint64 pid;
};
} // namespace

class TestReplicas : public QObject
{
    Q_OBJECT
    RedisServer m_master;
    std::unique_ptr<RedisServer> m_replica;
    ConnectionOptions m_options;

    QTemporaryDir m_dir; // the CLI's audit log

    // A crash, a hang or a sanitizer's report fails the test (clirun.h), and leaves exitCode -1.
    CliRun cli(const QStringList &args)
    {
        return runCli(args + QStringList { QStringLiteral("--url"), m_master.url(), QStringLiteral("--json") }, m_dir);
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_master.start(&error), qPrintable(error));
        RedisServerOptions o;
        o.extraArgs = { QStringLiteral("--replicaof"), m_master.host(), QString::number(m_master.port()) };
        m_replica = std::make_unique<RedisServer>(o);
        QVERIFY2(m_replica->start(&error), qPrintable(error));
        RawRedis master(m_master.port());
        QTRY_VERIFY_WITH_TIMEOUT(master.command({ "INFO", "replication" }).bytes().contains("state=online"), 20000);
        m_options = ConnectionOptions::fromUrl(m_master.url());
        m_options.replicaSyncTimeoutMs = kSyncTimeoutMs;
    }

    void lockWritesWaitForTheReplica()
    {
        LockClient client(m_options);
        RawRedis master(m_master.port()), replica(m_replica->port());
        const QByteArray name = uniqueKey("synced");
        const qint64 before = waitCalls(master);
        const AcquireResult a = acquire(client, plain(name));
        QVERIFY2(!a.error.isError(), qPrintable(a.error.toString()));
        QVERIFY(a.acquired);
        // Acknowledged means applied: the replica has the hold as soon as the acquire reports it.
        QCOMPARE(replica.hgetall(name).value(a.owner), "1");
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(replica.type(name), "none");
        QCOMPARE(waitCalls(master), before + 2);
    }

    void acquireNoReplicaAcknowledgedIsUndone()
    {
        LockClient client(m_options);
        RawRedis master(m_master.port());
        const QByteArray name = uniqueKey("unsynced");
        // The replica's count is read before it stalls, as a client that knew its replicas would.
        QVERIFY(acquire(client, plain(uniqueKey("warm"))).acquired);
        Stalled stalled(m_replica->pid());
        const AcquireResult a = acquire(client, plain(name));
        QVERIFY(!a.acquired);
        QCOMPARE(a.error.kind(), RedisError::Kind::NotSynced);
        QVERIFY2(a.error.message().contains(QLatin1String("undone")), qPrintable(a.error.message()));
        // Undone on the master: nobody holds it, and the next client takes it at once.
        QCOMPARE(master.type(name), "none");
        QVERIFY(client.holds().size() == 1); // only the warm-up hold is still tracked
    }

    void reentryNoReplicaAcknowledgedLeavesTheLevelsBefore()
    {
        LockClient client(m_options);
        RawRedis master(m_master.port());
        const QByteArray name = uniqueKey("reentry");
        const AcquireResult first = acquire(client, plain(name));
        QVERIFY(first.acquired);
        Stalled stalled(m_replica->pid());
        const AcquireResult again = acquire(client, plain(name));
        QCOMPARE(again.error.kind(), RedisError::Kind::NotSynced);
        QCOMPARE(master.hgetall(name).value(first.owner), "1");
    }

    void acquireWhoseUndoFailsSaysTheHoldMayRemain()
    {
        // Through a proxy that answers WAIT itself with no acknowledgement (the replica stays live and online, so the
        // master still counts it) and fails the unlock script that undoes the acquire: no stall, no timing.
        const QByteArray name = uniqueKey("undo-fails");
        FaultProxy proxy(m_master.port());
        proxy.setAnswers([name](const QList<QByteArray> &argv) -> QByteArray {
            const QByteArray command = argv.value(0).toUpper();
            if (command == "WAIT")
                return ":0\r\n";
            // The unlock script names three keys (the lock, its channel, the latch); the acquire only the lock.
            if ((command == "EVALSHA" || command == "EVAL") && argv.value(2) == "3" && argv.value(3) == name)
                return FaultProxy::errorReply("ERR injected: the undo cannot run");
            return {};
        });
        QVERIFY(proxy.listen());
        ConnectionOptions o = ConnectionOptions::fromUrl(proxy.url());
        o.replicaSyncTimeoutMs = kSyncTimeoutMs;
        LockClient client(o);
        RawRedis master(m_master.port());
        const AcquireResult a = acquire(client, plain(name));
        QVERIFY(!a.acquired);
        QCOMPARE(a.error.kind(), RedisError::Kind::NotSynced);
        const QString message = a.error.message();
        // Told what happened: the undo failed, with its error, and the hold may still be there; never "undone".
        QVERIFY2(!message.contains(QLatin1String("so it was undone")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("undoing it failed")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("injected: the undo cannot run")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("may still be in place")), qPrintable(message));
        QVERIFY(proxy.answered() >= 2); // the WAIT and the undo, both seen
        // It is: the master still has the hold, which nobody renews (the client tracks no hold), so its lease ends it.
        QCOMPARE(master.hgetall(name).value(a.owner), "1");
        QVERIFY(client.holds().isEmpty());
        master.command({ "DEL", name });
    }

    void noReplicaCheckKeepsTheAcquire()
    {
        ConnectionOptions o = m_options;
        o.checkSyncedReplicas = false;
        LockClient client(o);
        RawRedis master(m_master.port());
        const QByteArray name = uniqueKey("kept");
        QVERIFY(acquire(client, plain(uniqueKey("warm"))).acquired);
        Stalled stalled(m_replica->pid());
        const AcquireResult a = acquire(client, plain(name));
        QVERIFY2(a.acquired, qPrintable(a.error.toString()));
        QCOMPARE(master.hgetall(name).value(a.owner), "1");
    }

    void cliLockIsUndoneAndExitsOne()
    {
        RawRedis master(m_master.port());
        const QString name = uniqueName("cli-unsynced");
        // A stalled replica's link stays open: the master still counts it online, as a Redisson client would.
        Stalled stalled(m_replica->pid());
        const CliRun undone = cli({ QStringLiteral("lock"), name, QStringLiteral("--hold"), QStringLiteral("0"),
            QStringLiteral("--replica-sync-timeout"), QString::number(kSyncTimeoutMs) });
        CLI_REFUSED(undone, CliExit::NotDone, "undone");
        QCOMPARE(master.type(name.toUtf8()), "none");

        const CliRun kept = cli({ QStringLiteral("lock"), name, QStringLiteral("--hold"), QStringLiteral("0"),
            QStringLiteral("--replica-sync-timeout"), QString::number(kSyncTimeoutMs),
            QStringLiteral("--no-replica-check") });
        CLI_EXIT(kept, CliExit::Done);
        const QJsonObject acquired = QJsonDocument::fromJson(kept.out.split('\n').first()).object();
        QCOMPARE(acquired.value(QStringLiteral("event")).toString(), QStringLiteral("acquired"));

        const qint64 before = waitCalls(master);
        CLI_EXIT(cli({ QStringLiteral("lock"), name, QStringLiteral("--hold"), QStringLiteral("0"),
                     QStringLiteral("--replica-sync-timeout"), QStringLiteral("0") }),
            CliExit::Done);
        QCOMPARE(waitCalls(master), before);
    }

    void noReplicasNoWait()
    {
        RedisServer alone;
        QVERIFY(alone.start());
        ConnectionOptions o = ConnectionOptions::fromUrl(alone.url());
        LockClient client(o);
        RawRedis raw(alone.port());
        const QByteArray name = uniqueKey("alone");
        const AcquireResult a = acquire(client, plain(name));
        QVERIFY(a.acquired);
        QCOMPARE(release(client, name, a.owner).outcome, ReleaseResult::Outcome::Released);
        QCOMPARE(waitCalls(raw), 0);
    }
};

QTEST_GUILESS_MAIN(TestReplicas)
#include "tst_replicas.moc"
