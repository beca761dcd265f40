// Is the holder alive? Judged against real Redisson processes (issue 49): a watchdog holder that renews is alive; the
// same JVM frozen (SIGSTOP, a long pause) is unknown, since its connection stays open; killed, it is likely dead before
// its lease ends, with both signals named (renewals stopped, its connection closed); a fixed lease with nothing else
// known is unknown; a hold renewed far past the lock's usual time says so. The console's wiring without its window: a
// monitor, its statistics, the holder watch on the monitor's connection, and a trace that names the holder's
// connection. The CLI's `show --observe` says the same of a renewing holder.
//
// No lease here has to last for a time the test depends on, except the one it is about: a killed holder is judged
// while its lease still runs, which is the point (a 45 s lease, renewals every 15 s: two periods late is 15 s before
// it ends).
#include "clirun.h"
#include "processsockets.h"
#include "rawredis.h"
#include "redisserver.h"
#include "redissonfixture.h"
#include "testutil.h"
#include "tracewhile.h"

#include "clients/tracesession.h"
#include "liveness/holderwatch.h"
#include "monitor/lockmonitor.h"
#include "redis/redisrouter.h"
#include "stats/statscollector.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
constexpr qint64 kWatchdogMs = 45000;

// What the console puts together: the monitor, the statistics it feeds, and the holder watch beside them.
struct Console
{
    LockMonitor monitor;
    StatsCollector stats { &monitor };
    HolderWatch holders { monitor.connection() };

    Console(const QString &url, const QByteArray &pattern)
        : monitor(options(url), monitorOptions(pattern))
    {
        holders.setMonitor(&monitor);
        holders.setStatistics(&stats.statistics());
        holders.setPollInterval(500);
    }
    static ConnectionOptions options(const QString &url)
    {
        ConnectionOptions o = ConnectionOptions::fromUrl(url);
        o.readOnly = true;
        return o;
    }
    static LockMonitor::Options monitorOptions(const QByteArray &pattern)
    {
        LockMonitor::Options o;
        o.pattern = pattern;
        o.ttlPollIntervalMs = 250;
        return o;
    }
    bool start()
    {
        QSignalSpy done(&monitor, &LockMonitor::snapshotFinished);
        monitor.start();
        return done.wait(30000);
    }
    // The verdict on the lock's first holder, as the console would show it now; Unknown with no summary when it is
    // not held.
    LivenessVerdict verdict(const QByteArray &name) const
    {
        const LockRecord *r = monitor.record(name);
        if (!r || !r->present || r->info.holders.isEmpty())
            return {};
        return holders.verdict(r->info, r->info.holders.first());
    }
};

// One call on thread "a" of java that must succeed (a lock, an unlock): its reply's owner, or empty (and the test has
// failed) when it did not.
QString callOk(RedissonJvm &java, const QString &op, const QByteArray &name, const QJsonObject &more = {})
{
    const QJsonObject reply = java.call(redissonCall(op, QStringLiteral("a"), {}, name, more));
    if (!reply.value(QStringLiteral("ok")).toBool()) {
        QTest::qFail(QJsonDocument(reply).toJson().constData(), __FILE__, __LINE__);
        return {};
    }
    return reply.value(QStringLiteral("owner")).toString().isEmpty() ? QStringLiteral("ok")
                                                                     : reply.value(QStringLiteral("owner")).toString();
}

QString describe(const LivenessVerdict &v)
{
    return v.summary + QStringLiteral("\n  ") + v.evidence.join(QStringLiteral("\n  "));
}

} // namespace

class TestRedissonLiveness : public QObject
{
    Q_OBJECT
    RedissonFixture m_fixture;
    RedisServer &m_server = m_fixture.server;

private slots:
    void initTestCase() { m_fixture.start(); }

    // Renewing: alive. Frozen: renewals stop but its connection stays, so unknown, said as one signal. Killed while
    // frozen: its connections close, the second signal, and it is likely dead while its lease still runs.
    void frozenThenKilledHolder_data() { oldestAndNewestRedissonRows(); }
    void frozenThenKilledHolder()
    {
        QFETCH(QString, version);
        const QByteArray prefix = uniqueKey("live-frozen");
        const QByteArray name = prefix + ":orders";
        Console console(m_server.url(), prefix + ":*");
        QVERIFY(console.start());
        RedissonJvm java;
        QVERIFY(java.start(version, m_server.url(), kWatchdogMs));
        // The trace sees the acquire's script carry the owner id: its connection is then the holder's.
        QJsonObject locked;
        const TraceFindings findings = traceWhile(m_server.url(),
            [&] { locked = java.call(redissonCall(QStringLiteral("lock"), QStringLiteral("a"), {}, name)); });
        QVERIFY2(locked.value(QStringLiteral("ok")).toBool(), qPrintable(QJsonDocument(locked).toJson()));
        console.holders.addTrace(findings);
        QTRY_VERIFY_WITH_TIMEOUT(console.monitor.record(name) && console.monitor.record(name)->present, 30000);
        const LockHolder holder = console.monitor.record(name)->info.holders.value(0);
        QCOMPARE(holder.client, java.clientId());
        const OwnerPresence presence = console.holders.directory().presence(holder);
        QCOMPARE(presence.state, OwnerPresence::State::Connected);

        // Its first renewal gives the period: alive (renewing).
        QTRY_VERIFY2_WITH_TIMEOUT(console.verdict(name).state == LivenessVerdict::State::Alive,
            qPrintable(describe(console.verdict(name))), 60000);
        QVERIFY2(console.verdict(name).summary.startsWith(QStringLiteral("alive (renewing)")),
            qPrintable(describe(console.verdict(name))));
        QVERIFY(console.verdict(name).figures.periodMs > 0);

        java.freeze();
        QTRY_VERIFY2_WITH_TIMEOUT(
            console.verdict(name).figures.stopped(), qPrintable(describe(console.verdict(name))), 60000);
        LivenessVerdict frozen = console.verdict(name);
        QCOMPARE(frozen.state, LivenessVerdict::State::Unknown);
        QVERIFY2(frozen.summary.contains(QStringLiteral("one signal only (renewals stopped)")),
            qPrintable(describe(frozen)));
        QVERIFY2(frozen.evidence.join(QLatin1Char('\n')).contains(QStringLiteral("still open")),
            qPrintable(describe(frozen)));

        java.kill();
        QTRY_VERIFY2_WITH_TIMEOUT(console.verdict(name).state == LivenessVerdict::State::LikelyDead,
            qPrintable(describe(console.verdict(name))), 30000);
        const LivenessVerdict dead = console.verdict(name);
        const QString evidence = dead.evidence.join(QLatin1Char('\n'));
        QVERIFY2(evidence.contains(QStringLiteral("renewals stopped")), qPrintable(describe(dead)));
        QVERIFY2(evidence.contains(QStringLiteral("closed: not in CLIENT LIST")), qPrintable(describe(dead)));
        // Before its lease ends: the lock is still there, still held by the dead owner.
        RawRedis raw(m_server.port());
        QVERIFY(raw.command({ "PTTL", name }).toInteger() > 0);
        QCOMPARE(raw.command({ "HEXISTS", name, holder.owner }).toInteger(), 1);
        raw.command({ "DEL", name });
    }

    // Killed while renewing, never frozen: likely dead before its lease ends, both signals named.
    void killedHolderIsLikelyDead()
    {
        const QString version = pinnedRedissonVersions().first();
        const QByteArray prefix = uniqueKey("live-killed");
        const QByteArray name = prefix + ":orders";
        Console console(m_server.url(), prefix + ":*");
        QVERIFY(console.start());
        RedissonJvm java;
        QVERIFY(java.start(version, m_server.url(), kWatchdogMs));
        const TraceFindings findings
            = traceWhile(m_server.url(), [&] { QVERIFY(!callOk(java, QStringLiteral("lock"), name).isEmpty()); });
        console.holders.addTrace(findings);
        QTRY_VERIFY2_WITH_TIMEOUT(console.verdict(name).state == LivenessVerdict::State::Alive,
            qPrintable(describe(console.verdict(name))), 60000);
        java.kill();
        QTRY_VERIFY2_WITH_TIMEOUT(console.verdict(name).state == LivenessVerdict::State::LikelyDead,
            qPrintable(describe(console.verdict(name))), 60000);
        QVERIFY2(console.verdict(name).summary.contains(QStringLiteral("renewals stopped, its connection closed")),
            qPrintable(describe(console.verdict(name))));
        RawRedis raw(m_server.port());
        QVERIFY(raw.command({ "PTTL", name }).toInteger() > 0);
        raw.command({ "DEL", name });
    }

    // A fixed lease, nobody renewing, no trace: nothing says whether its holder lives. Unknown, and it says why.
    void fixedLeaseWithNothingElseIsUnknown()
    {
        const QByteArray prefix = uniqueKey("live-fixed");
        const QByteArray name = prefix + ":orders";
        Console console(m_server.url(), prefix + ":*");
        QVERIFY(console.start());
        RedissonJvm java;
        QVERIFY(java.start(pinnedRedissonVersions().first(), m_server.url()));
        QVERIFY(!callOk(java, QStringLiteral("lock"), name, lease(kLongLeaseMs)).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(console.monitor.record(name) && console.monitor.record(name)->present, 30000);
        QCOMPARE(console.verdict(name).state, LivenessVerdict::State::Unknown);
        QVERIFY2(describe(console.verdict(name)).contains(QStringLiteral("its connection is not known")),
            qPrintable(describe(console.verdict(name))));
        QVERIFY(!callOk(java, QStringLiteral("unlock"), name).isEmpty());
    }

    // Short holds, then one the watchdog renews for ten seconds: alive, and far past its usual time
    // (a hung thread keeps its lock as long as its watchdog runs).
    void holdFarPastItsUsualTimeSaysSo()
    {
        const QByteArray prefix = uniqueKey("live-usual");
        const QByteArray name = prefix + ":orders";
        Console console(m_server.url(), prefix + ":*");
        QVERIFY(console.start());
        RedissonJvm java;
        QVERIFY(java.start(pinnedRedissonVersions().first(), m_server.url(), 3000));
        // Each short hold lasts until the monitor has seen it: a hold gone before its read is not one it can count,
        // and a busy machine (sanitizers, two CPUs) reads late.
        for (int i = 0; i < 6; ++i) {
            QVERIFY(!callOk(java, QStringLiteral("lock"), name).isEmpty());
            QTRY_VERIFY_WITH_TIMEOUT(console.monitor.record(name) && console.monitor.record(name)->present, 30000);
            QVERIFY(!callOk(java, QStringLiteral("unlock"), name).isEmpty());
            QTRY_VERIFY_WITH_TIMEOUT(!console.monitor.record(name) || !console.monitor.record(name)->present, 30000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            console.stats.statistics().lock(name) && console.stats.statistics().lock(name)->holds.count() >= 5, 30000);
        QVERIFY(!callOk(java, QStringLiteral("lock"), name).isEmpty());
        QTRY_VERIFY2_WITH_TIMEOUT(console.verdict(name).summary.contains(QStringLiteral("its usual time")),
            qPrintable(describe(console.verdict(name))), 90000);
        QCOMPARE(console.verdict(name).state, LivenessVerdict::State::Alive);
        QVERIFY(!callOk(java, QStringLiteral("unlock"), name).isEmpty());
    }

    // An unlock of the holder's own owner id that let nothing go, while its watchdog renews on: an orphan renewal,
    // named (redisson #7272: the unlock ran before the acquire it meant to undo). The unlock is sent as Redisson sends
    // it (its owner id, the lock and its wake-up channel as keys), from a connection of the test's, and finds nothing
    // of its own to release. A real partial unlock seen the same way is no orphan: the monitor saw its level go.
    void anOrphanRenewalIsNamed()
    {
        const QByteArray prefix = uniqueKey("live-orphan");
        const QByteArray name = prefix + ":orders";
        Console console(m_server.url(), prefix + ":*");
        QVERIFY(console.start());
        RedissonJvm java;
        QVERIFY(java.start(pinnedRedissonVersions().first(), m_server.url(), 3000));
        const QString owner = callOk(java, QStringLiteral("lock"), name);
        QVERIFY(!owner.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(console.verdict(name).state == LivenessVerdict::State::Alive, 60000);
        // Open until the end: the unlock's connection is one the holder's owner id was seen on.
        RawRedis raw(m_server.port());
        console.holders.addTrace(traceWhile(m_server.url(), [&] {
            raw.command({ "EVAL", "return nil", "2", name, "redisson_lock__channel:{" + name + "}", "0", "3000",
                owner.toUtf8() });
        }));
        QTRY_VERIFY2_WITH_TIMEOUT(console.verdict(name).summary.contains(QStringLiteral("orphan renewal")),
            qPrintable(describe(console.verdict(name))), 60000);
        QCOMPARE(console.verdict(name).state, LivenessVerdict::State::Alive);

        // A second level taken and given back while traced: a real unlock that worked.
        QVERIFY(!callOk(java, QStringLiteral("lock"), name).isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(console.monitor.record(name)->info.holders.value(0).count, 2, 30000);
        console.holders.addTrace(
            traceWhile(m_server.url(), [&] { QVERIFY(!callOk(java, QStringLiteral("unlock"), name).isEmpty()); }));
        QTRY_COMPARE_WITH_TIMEOUT(console.monitor.record(name)->info.holders.value(0).count, 1, 30000);
        // Renewed on time after it, and no orphan said.
        const qint64 renewals = console.monitor.record(name)->renewals;
        QTRY_VERIFY_WITH_TIMEOUT(console.monitor.record(name)->renewals >= renewals + 3, 60000);
        QVERIFY2(!console.verdict(name).summary.contains(QStringLiteral("orphan")),
            qPrintable(describe(console.verdict(name))));
        QVERIFY(!callOk(java, QStringLiteral("unlock"), name).isEmpty());
    }

    // The CLI: `show --observe` watches a renewing holder and answers alive, with its renewals as numbers.
    void showObserveSaysAlive()
    {
        const QByteArray name = uniqueKey("live-show") + ":orders";
        RedissonJvm java;
        QVERIFY(java.start(pinnedRedissonVersions().first(), m_server.url(), 3000));
        QVERIFY(!callOk(java, QStringLiteral("lock"), name).isEmpty());
        const CliRun run = m_fixture.cli({ QStringLiteral("show"), QString::fromUtf8(name), QStringLiteral("--observe"),
            QStringLiteral("5000"), QStringLiteral("--json") });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject holder
            = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("holders")).toArray().first().toObject();
        QCOMPARE(holder.value(QStringLiteral("liveness")).toString(), QStringLiteral("alive"));
        QVERIFY(holder.value(QStringLiteral("renewal_period_ms")).toInteger() > 0);
        QVERIFY(holder.value(QStringLiteral("last_renewed_ms")).toInteger() >= 0);
        QVERIFY(holder.value(QStringLiteral("missed_renewals")).toDouble() < 1);
        QCOMPARE(holder.value(QStringLiteral("transitions")).toInt(), 0);
        QVERIFY(!holder.value(QStringLiteral("liveness_evidence")).toArray().isEmpty());
        // One read without --observe: the renewals were not watched, and it says so.
        const CliRun once = m_fixture.cli({ QStringLiteral("show"), QString::fromUtf8(name) });
        QVERIFY2(once.exitCode == 0, qPrintable(once.err));
        QVERIFY2(once.out.contains("liveness: unknown"), once.out.constData());
        QVERIFY2(once.out.contains("--observe"), once.out.constData());
        QVERIFY(!callOk(java, QStringLiteral("unlock"), name).isEmpty());
    }
    // The force-release prompt, as support staff meet it: a holder a trace saw (lockscope-cli trace) whose JVM was
    // killed since. One read cannot see renewals stop, so the verdict is unknown, with its one signal named; the
    // person answers no and nothing changes.
    void forceReleasePromptShowsTheVerdict()
    {
        const QByteArray name = uniqueKey("live-prompt") + ":orders";
        RedissonJvm java;
        QVERIFY(java.start(pinnedRedissonVersions().first(), m_server.url()));
        QProcess trace;
        startCli(trace,
            { QStringLiteral("trace"), QStringLiteral("--seconds"), QStringLiteral("300"), QStringLiteral("--url"),
                m_server.url() },
            m_fixture.dir);
        QByteArray traceErr;
        QTRY_VERIFY2_WITH_TIMEOUT(
            (traceErr += trace.readAllStandardError()).contains("tracing "), traceErr.constData(), 30000);
        QVERIFY(!callOk(java, QStringLiteral("lock"), name).isEmpty());
        trace.terminate(); // ends the trace early; it still saves what it saw
        CLI_EXIT(finishCli(trace, 60000, CliWait::Blocking, traceErr), CliExit::Done);

        const QSet<quint16> ports = processTcpPorts(pid_t(java.pid()));
        QVERIFY(!ports.isEmpty());
        java.kill();
        RawRedis raw(m_server.port());
        // The server has noticed the JVM's sockets close: none of its ports is listed any more.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QByteArray list = raw.command({ "CLIENT", "LIST" }).bytes();
                for (quint16 port : ports)
                    if (list.contains(":" + QByteArray::number(port) + " "))
                        return false;
                return true;
            }(),
            30000);

        const int terminal = posix_openpt(O_RDWR | O_NOCTTY);
        QVERIFY(terminal >= 0);
        QVERIFY(grantpt(terminal) == 0 && unlockpt(terminal) == 0);
        QProcess p;
        p.setStandardInputFile(QString::fromLocal8Bit(ptsname(terminal)));
        startCli(p,
            { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--url"), m_server.url() },
            m_fixture.dir);
        QByteArray err;
        QTRY_VERIFY2_WITH_TIMEOUT((err += p.readAllStandardError()).contains("[y/N]"), err.constData(), 30000);
        QVERIFY2(err.contains("liveness: unknown: one signal only (its connection closed)"), err.constData());
        QVERIFY2(err.contains("closed: not in CLIENT LIST"), err.constData());
        QVERIFY2(err.contains("--observe"), err.constData()); // and what one read could not see
        QCOMPARE(::write(terminal, "n\n", 2), 2);
        const CliRun r = finishCli(p, 30000, CliWait::Blocking, err);
        ::close(terminal);
        CLI_EXIT(r, CliExit::NotDone);
        QVERIFY(raw.command({ "PTTL", name }).toInteger() > 0); // nothing changed
        raw.command({ "DEL", name });
    }
};

QTEST_GUILESS_MAIN(TestRedissonLiveness)
#include "tst_redissonliveness.moc"
