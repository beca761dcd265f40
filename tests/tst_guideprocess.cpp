// The guided demo's process scenarios on a real redis-server: a holder in a process of its own killed with -9 (G11)
// and frozen with SIGSTOP (G16), checked by the actors' own reports and from the server's side (the process's sockets
// against the server's MONITOR log), the listeners counted as the waiters subscribe, and what happens without an
// actor program or with one that is no actor.
#include "clirun.h"
#include "guide/guidestage.h"
#include "guidefixture.h"
#include "processsockets.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QSignalSpy>
#include <QTest>

#include <cerrno>
#include <csignal>

using namespace LockScope;
using namespace LockScope::Guide;
using namespace LockScope::Test;

class TestGuideProcess : public QObject, protected GuideFixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUpFixture(); }
    void cleanup() { checkActorErrors(); }

    // G11: kill -9 of the holder's process releases nothing. Its lock outlives its connections until the lease runs
    // out, nobody publishes, and the waiter is woken by its own timer, never by a message.
    void crashedHolderLockOutlivesItsConnections()
    {
        // The server's side of the story: A's connections (its process's sockets, read while it lives) and every
        // command the server ran, with a mark where the kill step ended.
        ServerCommandLog log(m_server.port());
        QVERIFY(log.started());
        QSet<quint16> ports;
        pid_t actor = 0;
        bool killSeen = false;
        QByteArrayList clientsAfterKill;
        const Played played = play(*findScenario(QStringLiteral("crash")), 3000, true, [&](const GuideRecord &r) {
            if (r.type == GuideRecord::Type::Event && r.actor == "A" && r.event == ActorEvent::Started)
                actor = pid_t(r.pid);
            if (actor > 0 && !killSeen)
                ports |= childTcpPorts(actor);
            if (r.type == GuideRecord::Type::Step && r.event == ActorEvent::Killed) {
                killSeen = true;
                log.mark("killed");
            } else if (killSeen && r.type == GuideRecord::Type::Step && clientsAfterKill.isEmpty()) {
                // The next step (B woken by its timer) ran its commands after the server closed A's connections.
                RawRedis raw(m_server.port());
                clientsAfterKill = raw.command({ "CLIENT", "LIST" }).bytes().split('\n');
            }
        });
        QVERIFY2(played.error.isEmpty(), qPrintable(played.error));
        for (const GuideRecord &step : played.steps())
            QVERIFY2(!step.unexpected, qPrintable(step.seen.join(QStringLiteral("; "))));
        const GuideRecord *started = played.event("A", ActorEvent::Started);
        QVERIFY(started);
        const pid_t pid = pid_t(started->pid);
        QVERIFY(pid > 0 && pid != QCoreApplication::applicationPid());
        // The process is really gone (reaped), not told to stop.
        QCOMPARE(::kill(pid, 0), -1);
        QCOMPARE(errno, ESRCH);
        const GuideRecord killed = played.steps().at(2);
        QCOMPARE(killed.event, ActorEvent::Killed);
        QCOMPARE(killed.state.first().field("ff161e99-fd06-42f9-8bf0-1b34d803c1a7:1"), QByteArray("1"));
        const GuideRecord *expired = played.event("Redis", ActorEvent::Expired);
        QVERIFY(expired);
        // After the crash, never at it: the scenario's own steps bound when (its awaits, in units of T); a time
        // threshold here would flake on a busy machine.
        QVERIFY2(expired->tMs > killed.tMs, qPrintable(QString::number(expired->tMs - killed.tMs)));
        QVERIFY(played.event("B1", ActorEvent::WokenByTimer));
        QVERIFY(!played.event("B1", ActorEvent::WokenByMessage));
        const GuideRecord *acquired = played.event("B1", ActorEvent::Acquired);
        QVERIFY(acquired);
        QVERIFY(acquired->tMs > killed.tMs);
        // A's process made no call after the kill, by its own account and by the server's.
        for (const GuideRecord &r : played.records) {
            if (r.type == GuideRecord::Type::Wire && r.actor.startsWith('A'))
                QVERIFY2(r.tMs < killed.tMs, qPrintable(QString::fromUtf8(r.op + ' ' + r.script)));
        }
        QVERIFY(!ports.isEmpty());
        bool afterKill = false;
        int fromA[2] = { 0, 0 };
        for (const auto &[port, line] : log.readUntil("end")) {
            if (port == 0 && line == "killed")
                afterKill = true;
            else if (ports.contains(port))
                ++fromA[afterKill];
            if (afterKill && ports.contains(port))
                qWarning("A's process after the kill: %s", line.constData());
        }
        QVERIFY(afterKill);
        QVERIFY2(fromA[0] > 0, "the server's log has no command of A's process: its connections were not found");
        QCOMPARE(fromA[1], 0);
        // Redis closed A's connections (the lock outlived them, as the steps' state shows).
        QVERIFY(!clientsAfterKill.isEmpty());
        for (const QByteArray &client : std::as_const(clientsAfterKill)) {
            for (const quint16 port : std::as_const(ports))
                QVERIFY2(!client.contains(":" + QByteArray::number(port) + ' '), client.constData());
        }
        verifyServerClean();
    }

    // G16: a frozen holder renews nothing while its connections stay open; another client takes the expired lock;
    // thawed, the holder's renewal answers 0 and is dropped without a word, and its unlock is refused, leaving the
    // new owner's lock as it was.
    void frozenHolderLosesTheLockWithoutKnowing()
    {
        // The server's side: A's connections, their being listed while frozen, and every command the server ran with
        // marks where the freeze step ended and where the last step before the thaw ended (after the thaw A's overdue
        // tick may run before any mark could be placed).
        ServerCommandLog log(m_server.port());
        QVERIFY(log.started());
        QSet<quint16> ports;
        pid_t actor = 0;
        int stepsSeen = 0;
        QByteArray clientsWhileFrozen;
        const Played played
            = play(*findScenario(QStringLiteral("paused-holder")), 3000, true, [&](const GuideRecord &r) {
                  if (r.type == GuideRecord::Type::Event && r.actor == "A" && r.event == ActorEvent::Started)
                      actor = pid_t(r.pid);
                  if (r.type != GuideRecord::Type::Step)
                      return;
                  ++stepsSeen;
                  if (stepsSeen == 2 && actor > 0)
                      ports = childTcpPorts(actor);
                  if (r.event == ActorEvent::Frozen) {
                      log.mark("frozen");
                  } else if (stepsSeen == 5) {
                      RawRedis raw(m_server.port());
                      clientsWhileFrozen = raw.command({ "CLIENT", "LIST" }).bytes();
                      log.mark("before-thaw");
                  }
              });
        QVERIFY2(played.error.isEmpty(), qPrintable(played.error));
        for (const GuideRecord &step : played.steps())
            QVERIFY2(!step.unexpected, qPrintable(step.seen.join(QStringLiteral("; "))));
        const QList<GuideRecord> steps = played.steps();
        const GuideRecord frozen = steps.at(2);
        const GuideRecord thawed = steps.at(5);
        QCOMPARE(frozen.event, ActorEvent::Frozen);
        QCOMPARE(thawed.event, ActorEvent::Thawed);
        // Nothing from A while it was frozen: no renewal, no command; by its own account and by the server's.
        for (const GuideRecord &r : played.records) {
            if (r.type == GuideRecord::Type::Wire && r.actor.startsWith('A'))
                QVERIFY2(r.tMs < frozen.tMs || r.tMs >= thawed.tMs, qPrintable(QString::number(r.tMs)));
        }
        QVERIFY(!ports.isEmpty());
        enum { Before, Frozen, Thawing } phase = Before;
        int fromA[3] = { 0, 0, 0 };
        for (const auto &[port, line] : log.readUntil("end")) {
            if (port == 0 && line == "frozen")
                phase = Frozen;
            else if (port == 0 && line == "before-thaw")
                phase = Thawing;
            else if (ports.contains(port))
                ++fromA[phase];
            if (phase == Frozen && ports.contains(port))
                qWarning("A's process while frozen: %s", line.constData());
        }
        QVERIFY2(fromA[Before] > 0, "the server's log has no command of A's process: its connections were not found");
        QCOMPARE(fromA[Frozen], 0);
        QVERIFY2(fromA[Thawing] > 0, "A's renewal and unlock after the thaw are missing from the server's log");
        // Frozen, A's connections stayed open and listed: Redis saw nothing wrong.
        for (const quint16 port : std::as_const(ports))
            QVERIFY2(clientsWhileFrozen.contains(":" + QByteArray::number(port) + ' '), clientsWhileFrozen.constData());
        const GuideRecord *acquired = played.event("B1", ActorEvent::Acquired);
        QVERIFY(acquired && acquired->tMs < thawed.tMs);
        const GuideRecord *dropped = played.event("A", ActorEvent::RenewalDropped);
        QVERIFY(dropped && dropped->tMs >= thawed.tMs);
        const GuideRecord *refused = played.event("A1", ActorEvent::Refused);
        QVERIFY(refused);
        QVERIFY2(refused->java.startsWith(QStringLiteral("IllegalMonitorStateException:")), qPrintable(refused->java));
        const GuideRecord unlock = steps.at(7);
        QCOMPARE(unlock.state.first().field("b983c153-8e53-4c04-beb8-0c34d6e0237d:132"), QByteArray("1"));
        QVERIFY(!played.event("B1", ActorEvent::WokenByMessage));
        verifyServerClean();
    }

    // The window's listener count follows a SUBSCRIBE as it happens, not only as the next step's reading finds it.
    // G11: B's SUBSCRIBE goes out after its lock() step's first reply; the player counts it (1 listener) and the
    // stage shows it while B sleeps, even after a step's reading that saw nobody.
    void stageCountsListenersAsTheySubscribe()
    {
        const Scenario &crash = *findScenario(QStringLiteral("G11"));
        GuidePlayer::Options options;
        options.timeScaleMs = 3000;
        withActorProgram(options);
        GuidePlayer player(ConnectionOptions::fromUrl(m_server.url()), options);
        GuideStage stage;
        stage.reset(crash, 3000);
        GuideRecord subscribe;
        int listenersWhileSleeping = -1;
        bool done = false;
        connect(&player, &GuidePlayer::record, &player, [&](const GuideRecord &r) {
            stage.apply(r);
            if (r.type == GuideRecord::Type::Wire && r.op == "SUBSCRIBE" && subscribe.op.isEmpty())
                subscribe = r;
            if (listenersWhileSleeping < 0 && r.type == GuideRecord::Type::Event && r.actor == "B1"
                && r.event == ActorEvent::Sleeping) {
                listenersWhileSleeping = stage.listeners();
                player.stop(); // what matters is seen
            }
        });
        connect(&player, &GuidePlayer::finished, &player, [&] { done = true; });
        player.play(crash);
        QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
        QCOMPARE(subscribe.actor, QByteArray("B1"));
        QCOMPARE(subscribe.listeners, 1);
        QCOMPARE(listenersWhileSleeping, 1);
        // The order the race decides, set on purpose: B's lock() step read nobody listening, then its SUBSCRIBE.
        GuideStage later;
        later.reset(crash, 3000);
        GuideRecord lockStep;
        lockStep.type = GuideRecord::Type::Step;
        lockStep.step = 2;
        lockStep.actor = "B1";
        lockStep.op = "lock";
        lockStep.listeners = 0;
        later.apply(lockStep);
        QCOMPARE(later.listeners(), 0);
        later.apply(subscribe);
        QCOMPARE(later.listeners(), 1);
        verifyServerClean();
    }

    // Without a program to start the process client, the crash scenario says why instead of playing a fake crash.
    void processScenarioNeedsItsProgram()
    {
        GuidePlayer player(ConnectionOptions::fromUrl(m_server.url()), GuidePlayer::Options {});
        QSignalSpy finished(&player, &GuidePlayer::finished);
        player.play(*findScenario(QStringLiteral("G11")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("process of its own")));
        verifyServerClean();
    }

    // A program that is not an actor (it ends at once) ends the scenario with the reason, and nothing is written.
    void processThatIsNotAnActorEndsTheScenario()
    {
        GuidePlayer::Options options;
        options.actorProgram = QStringLiteral("/bin/true");
        GuidePlayer player(ConnectionOptions::fromUrl(m_server.url()), options);
        QSignalSpy finished(&player, &GuidePlayer::finished);
        player.play(*findScenario(QStringLiteral("G16")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QVERIFY2(finished.first().at(1).toString().contains(QStringLiteral("ended (exit code 0)")),
            qPrintable(finished.first().at(1).toString()));
        verifyServerClean();
    }
};

QTEST_GUILESS_MAIN(TestGuideProcess)
#include "tst_guideprocess.moc"
