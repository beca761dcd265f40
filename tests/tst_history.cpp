// Mutual exclusion, checked Jepsen-style: worker processes take random holds of a few locks, with fixed leases that
// often run out and with the watchdog, while the test kills some of them mid-hold. Every hold is logged with the
// server's clock; the checker proves no two holds of one lock overlapped, except where the first one's lease had
// run out, and for each of those the monitor must have raised owner-changed.
#include "clirun.h"
#include "historycheck.h"
#include "monitorwatch.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTest>

#include <memory>
#include <vector>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
constexpr int kWorkers = 4;
constexpr int kLocks = 3;
// The CI run; the long run (docs/reliability.md) raises both through the environment.
const int kIterations = qEnvironmentVariableIntValue("LOCKSCOPE_HISTORY_ITERATIONS") > 0
    ? qEnvironmentVariableIntValue("LOCKSCOPE_HISTORY_ITERATIONS")
    : 25;
const int kKills = qEnvironmentVariableIsSet("LOCKSCOPE_HISTORY_KILLS")
    ? qEnvironmentVariableIntValue("LOCKSCOPE_HISTORY_KILLS")
    : 3;

struct Worker
{
    std::unique_ptr<QProcess> process = std::make_unique<QProcess>();
    QByteArray log;
    qint64 killedAtUs = -1;

    bool holding()
    {
        log += process->readAllStandardOutput();
        const QList<QByteArray> lines = log.trimmed().split('\n');
        return !lines.isEmpty() && lines.last().startsWith("A ");
    }
};

qint64 serverMicros(RawRedis &raw)
{
    const RedisValue t = raw.command({ "TIME" });
    return t.at(0).toInteger() * 1000000 + t.at(1).toInteger();
}
} // namespace

class TestHistory : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("Kh$zgx") } } };

    void spawn(std::vector<Worker> &workers, const QByteArray &prefix, int iterations)
    {
        Worker w;
        w.process->start(QStringLiteral(LOCKSCOPE_WORKER_PATH),
            { QStringLiteral("history"), m_server.url(), QString::fromUtf8(prefix), QString::number(kLocks),
                QString::number(iterations), QString::number(QRandomGenerator::global()->generate()) });
        QVERIFY(w.process->waitForStarted());
        workers.push_back(std::move(w));
    }

private slots:
    void initTestCase() { QVERIFY(m_server.start()); }

    void checkerFindsOverlaps()
    {
        // The checker itself can fail: an overlap inside a watchdog hold is a violation, one after a fixed lease
        // ran out is excused, and holds of different locks never conflict.
        const Hold a { "l", "A:1", 0, 100, 900000, 300, false, false, false, "not-held" };
        const Hold early { "l", "B:1", 200000, 250000, 260000, 300, false, false, false, "released" };
        const Hold late { "l", "B:1", 300000, 310000, 320000, 300, false, false, false, "released" };
        const Hold elsewhere { "m", "C:1", 0, 150, 800000, 300, false, false, false, "released" };
        QCOMPARE(checkHistory({ a, early, elsewhere }).violations.size(), 1);
        QCOMPARE(checkHistory({ a, late, elsewhere }).violations.size(), 0);
        QCOMPARE(checkHistory({ a, late, elsewhere }).excused.size(), 1);
        Hold watched = a;
        watched.watchdog = true;
        QCOMPARE(checkHistory({ watched, late }).violations.size(), 1);
        const QList<Hold> parsed = parseHistory("A l A:1 5 10 300 1\nR l A:1 20 released\nA l A:1 30 40 300 0\n", 99);
        QCOMPARE(parsed.size(), 2);
        QVERIFY(parsed.at(1).killed);
        QCOMPARE(parsed.at(1).end, qint64(99));
    }

    void noTwoHoldersAtOnce()
    {
        const QByteArray prefix = uniqueKey("history");
        RawRedis raw(m_server.port());
        LockMonitor::Options mo;
        mo.pattern = prefix + ":*";
        mo.ttlPollIntervalMs = 100;
        MonitorWatch w(ConnectionOptions::fromUrl(m_server.url()), mo);
        QVERIFY(w.start());
        QCOMPARE(w.monitor.mode(), LockEventFeed::Mode::KeyspaceEvents);

        std::vector<Worker> workers;
        for (int i = 0; i < kWorkers; ++i)
            spawn(workers, prefix, kIterations);
        // Kill workers in the middle of a hold; a fresh one (a new client id) takes each one's place.
        int kills = 0;
        for (int k = 0; k < kKills; ++k) {
            QList<int> alive;
            for (int i = 0; i < int(workers.size()); ++i)
                if (workers[i].process->state() != QProcess::NotRunning)
                    alive << i;
            if (alive.isEmpty())
                break;
            Worker &v = workers[alive.at(int(QRandomGenerator::global()->bounded(int(alive.size()))))];
            QTRY_VERIFY_WITH_TIMEOUT(v.holding() || v.process->state() == QProcess::NotRunning, 20000);
            if (v.process->state() == QProcess::NotRunning)
                continue;
            // Killed on purpose; a sanitizer's report before the kill fails the test.
            const KilledRun killed = killChild(*v.process, __FILE__, __LINE__);
            if (!killed.ok)
                return;
            v.log += killed.out;
            v.killedAtUs = serverMicros(raw);
            ++kills;
            spawn(workers, prefix, kIterations / 2);
        }
        // Waited for with the event loop running: the monitor lives in this thread and must see everything live.
        const auto allDone = [&workers] {
            for (Worker &worker : workers)
                if (worker.process->state() != QProcess::NotRunning)
                    return false;
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(allDone(), 90000);
        QList<Hold> holds;
        int killedHolding = 0, gaveUp = 0;
        for (Worker &worker : workers) {
            worker.log += worker.process->readAllStandardOutput();
            if (worker.killedAtUs < 0) {
                QCOMPARE(worker.process->exitStatus(), QProcess::NormalExit);
                QCOMPARE(worker.process->exitCode(), 0);
                const QByteArray err = worker.process->readAllStandardError();
                QVERIFY2(!sanitizerReported(err), err.constData());
            }
            const QList<Hold> mine = parseHistory(worker.log, worker.killedAtUs);
            gaveUp += int(worker.log.count("\nW ")) + (worker.log.startsWith("W ") ? 1 : 0);
            killedHolding += int(std::count_if(mine.begin(), mine.end(), [](const Hold &h) { return h.killed; }));
            holds << mine;
        }
        const HistoryVerdict verdict = checkHistory(holds);
        QStringList violations;
        for (const Overlap &o : verdict.violations)
            violations << describe(o);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join(QLatin1Char('\n'))));
        QVERIFY(verdict.holds > kWorkers * kIterations / 2);

        // Every excused overlap was visible: the monitor said the owner changed without a release.
        const auto ownerChangedFrom = [&w](const Overlap &o) {
            for (const LockEvent &e : w.events)
                if (e.type == LockEvent::Type::OwnerChanged && e.name == o.first.lock
                    && e.previousOwner == o.first.owner)
                    return true;
            return false;
        };
        const auto timeline = [&w](const QByteArray &lock) {
            QStringList lines;
            for (const LockEvent &e : w.events)
                if (e.name == lock)
                    lines << QStringLiteral("%1 %2 %3 <- %4")
                                 .arg(e.timeMs)
                                 .arg(QString::fromUtf8(LockEvent::typeName(e.type)))
                                 .arg(QString::fromUtf8(e.owner), QString::fromUtf8(e.previousOwner));
            return lines.join(QLatin1Char('\n'));
        };
        for (const Overlap &o : verdict.excused)
            QTRY_VERIFY2(ownerChangedFrom(o), qPrintable(describe(o) + QLatin1Char('\n') + timeline(o.first.lock)));
        qInfo("history: %d holds by %d processes (%d killed, %d of them mid-hold), %lld overlaps after a lease ran "
              "out (each with owner-changed), %lld violations, %d waits given up after 4 s",
            verdict.holds, int(workers.size()), kills, killedHolding, qint64(verdict.excused.size()),
            qint64(verdict.violations.size()), gaveUp);
    }
};

QTEST_GUILESS_MAIN(TestHistory)
#include "tst_history.moc"
