// The guided demo on a real redis-server: every scenario plays at T = 3 s with every expectation met (so every
// narration is true), the wake-ups and the mis-delete show what they claim, the watchdog at true scale, and
// lockscope-cli guide as a person and a script use it, including the refusals that leave a server untouched.
#include "clirun.h"
#include "guide/guidejson.h"
#include "guide/guideplayer.h"
#include "guide/guidestage.h"
#include "processsockets.h"
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <functional>
#include <memory>
#include <vector>

using namespace LockScope;
using namespace LockScope::Guide;
using namespace LockScope::Test;

namespace {
struct Played
{
    QList<GuideRecord> records;
    int unexpected = -1;
    QString error;

    QList<GuideRecord> steps() const
    {
        QList<GuideRecord> out;
        for (const GuideRecord &r : records) {
            if (r.type == GuideRecord::Type::Step)
                out << r;
        }
        return out;
    }
    const GuideRecord *event(const QByteArray &actor, ActorEvent event) const
    {
        for (const GuideRecord &r : records) {
            if (r.type == GuideRecord::Type::Event && r.actor == actor && r.event == event)
                return &r;
        }
        return nullptr;
    }
};
} // namespace

class TestGuide : public QObject
{
    Q_OBJECT

    RedisServer m_server;
    QTemporaryDir m_dir;

    Played play(const Scenario &scenario, int timeScaleMs = 3000, bool ownServer = true,
        const std::function<void(const GuideRecord &)> &watch = {})
    {
        GuidePlayer::Options options;
        options.timeScaleMs = timeScaleMs;
        options.ownServer = ownServer;
        withActorProgram(options);
        GuidePlayer player(ConnectionOptions::fromUrl(m_server.url()), options);
        Played played;
        bool done = false;
        connect(&player, &GuidePlayer::record, &player, [&](const GuideRecord &r) {
            played.records << r;
            if (watch)
                watch(r);
        });
        connect(&player, &GuidePlayer::finished, &player, [&](int unexpected, const QString &error, bool) {
            played.unexpected = unexpected;
            played.error = error;
            done = true;
        });
        player.play(scenario);
        // Long enough for the slowest scenario at this T on a loaded machine; the player's own steps have no deadline
        // but the ones the scenario sets in units of T.
        const int budget = int(timeScaleMs * 4 + 60000);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(done, budget); }();
        return played;
    }

    // The crash and freeze scenarios' process clients are lockscope-cli's hidden guide-actor, as the CLI starts them.
    // The player kills them on purpose (SIGKILL) and forwards their standard error: here it goes to a file instead
    // (exec keeps the pid the player signals the CLI's own), and cleanup() fails the test on a sanitizer's report in
    // it, which a killed actor's exit could not.
    void withActorProgram(GuidePlayer::Options &options) const
    {
        options.actorProgram = QStringLiteral("/bin/sh");
        options.actorArguments = actorArgumentsWritingErrorsTo(actorErrors());
    }
    QString actorErrors() const { return m_dir.filePath(QStringLiteral("actors.stderr")); }

    // Nothing of the demo is left on the server: no guided key or latch, nobody on a guided channel.
    void verifyServerClean()
    {
        RawRedis raw(m_server.port());
        QCOMPARE(raw.command({ "KEYS", "guided:*" }).size(), 0);
        QCOMPARE(raw.command({ "KEYS", "redisson_unlock_latch:*" }).size(), 0);
        QCOMPARE(raw.command({ "PUBSUB", "CHANNELS", "redisson_lock__channel:{guided:*" }).size(), 0);
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
    }

    // What the actors said on standard error during the test: shown, and a sanitizer's report fails it.
    void cleanup()
    {
        QVERIFY2(!sanitizerReportedInFile(actorErrors(), "the guide's actors"),
            "a sanitizer reported an error in a guide actor (above)");
    }

    // Each step's reply, the calls its script ran (MONITOR), the state after and the events it waits for are what
    // the scenario says, so the narration written beside them is true. The scenarios play side by side, each on a
    // server of its own (they mostly wait on their timers), so the whole tour takes as long as its longest one.
    void everyScenarioGoesAsNarrated()
    {
        const QList<Scenario> &all = scenarios();
        std::vector<std::unique_ptr<RedisServer>> servers;
        std::vector<std::unique_ptr<GuidePlayer>> players;
        QList<Played> played(all.size());
        int done = 0;
        for (int i = 0; i < all.size(); ++i) {
            servers.push_back(std::make_unique<RedisServer>());
            QString error;
            QVERIFY2(servers.back()->start(&error), qPrintable(error));
            GuidePlayer::Options options;
            options.timeScaleMs = 3000;
            withActorProgram(options);
            players.push_back(
                std::make_unique<GuidePlayer>(ConnectionOptions::fromUrl(servers.back()->url()), options));
            GuidePlayer *player = players.back().get();
            connect(
                player, &GuidePlayer::record, player, [&played, i](const GuideRecord &r) { played[i].records << r; });
            connect(player, &GuidePlayer::finished, player,
                [&played, &done, i](int unexpected, const QString &error, bool) {
                    played[i].unexpected = unexpected;
                    played[i].error = error;
                    ++done;
                });
        }
        for (int i = 0; i < all.size(); ++i)
            players[i]->play(all.at(i));
        QTRY_VERIFY_WITH_TIMEOUT(done == all.size(), 120000);
        for (int i = 0; i < all.size(); ++i) {
            const Scenario &scenario = all.at(i);
            QVERIFY2(played[i].error.isEmpty(), qPrintable(scenario.id + ": " + played[i].error));
            const QList<GuideRecord> steps = played[i].steps();
            QCOMPARE(steps.size(), scenario.steps.size());
            for (const GuideRecord &step : steps) {
                QVERIFY2(!step.unexpected,
                    qPrintable(QStringLiteral("%1 step %2 (%3): %4")
                                   .arg(QString::fromLatin1(scenario.id))
                                   .arg(step.step)
                                   .arg(step.narration.left(60), step.seen.join(QStringLiteral("; ")))));
            }
            QCOMPARE(played[i].unexpected, 0);
            RawRedis raw(servers[i]->port());
            QCOMPARE(raw.command({ "KEYS", "guided:*" }).size(), 0);
            QCOMPARE(raw.command({ "KEYS", "redisson_unlock_latch:*" }).size(), 0);
        }
    }

    // G12: the expired owner's unlock is refused with nil and Redisson's exception, and the new owner's field, count
    // and TTL are untouched.
    void lateUnlockLeavesTheNewOwnerAlone()
    {
        const Played played = play(*findScenario(QStringLiteral("mis-delete")));
        QVERIFY2(played.error.isEmpty(), qPrintable(played.error));
        const GuideRecord *expired = played.event("Redis", ActorEvent::Expired);
        QVERIFY(expired);
        const GuideRecord *refused = played.event("A1", ActorEvent::Refused);
        QVERIFY(refused);
        QVERIFY2(refused->java.startsWith(QStringLiteral("IllegalMonitorStateException: attempt to unlock lock, not "
                                                         "locked by current thread by node id: ff161e99-")),
            qPrintable(refused->java));
        const GuideRecord unlock = played.steps().at(3);
        QCOMPARE(unlock.actor, QByteArray("A1"));
        QVERIFY(unlock.reply.isNil());
        QCOMPARE(unlock.calls, (QList<QByteArray> { "get", "hexists" }));
        QCOMPARE(unlock.state.first().type, QByteArray("hash"));
        QCOMPARE(unlock.state.first().field("b983c153-8e53-4c04-beb8-0c34d6e0237d:132"), QByteArray("1"));
        QVERIFY(unlock.state.first().field("ff161e99-fd06-42f9-8bf0-1b34d803c1a7:1").isEmpty());
        QVERIFY(unlock.state.first().pttl > 0);
    }

    // G07: the waiter sleeps with a timer set to the holder's lease, and the unlock message wakes it well before.
    void unlockMessageWakesTheWaiter()
    {
        const Played played = play(*findScenario(QStringLiteral("G07")));
        QVERIFY2(played.error.isEmpty(), qPrintable(played.error));
        const GuideRecord *sleeping = played.event("B1", ActorEvent::Sleeping);
        const GuideRecord *woken = played.event("B1", ActorEvent::WokenByMessage);
        QVERIFY(sleeping);
        QVERIFY(woken);
        QVERIFY(!played.event("B1", ActorEvent::WokenByTimer));
        QVERIFY2(woken->ms < sleeping->ms,
            qPrintable(QStringLiteral("woken after %1 ms of a %2 ms timer").arg(woken->ms).arg(sleeping->ms)));
        QVERIFY(played.event("B1", ActorEvent::Acquired));
    }

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

    // G09's budget run: while B's await for its budget runs, A's watchdog renews the lease. The renewals go out as
    // they happen, before the step that ends the wait, not held back behind it until it ends.
    void awaitLetsWhatHappensMeanwhileThrough()
    {
        const Played played = play(*findScenario(QStringLiteral("trylock-loop")));
        QVERIFY2(played.error.isEmpty(), qPrintable(played.error));
        QCOMPARE(played.unexpected, 0);
        qsizetype awaitAt = -1;
        for (qsizetype i = 0; i < played.records.size(); ++i) {
            const GuideRecord &r = played.records.at(i);
            if (r.type == GuideRecord::Type::Step && r.step == 4)
                awaitAt = i;
        }
        QVERIFY(awaitAt > 0);
        const GuideRecord &await = played.records.at(awaitAt);
        QCOMPARE(await.event, ActorEvent::BudgetSpent);
        int renewalsBefore = 0;
        for (qsizetype i = 0; i < played.records.size(); ++i) {
            const GuideRecord &r = played.records.at(i);
            if (r.type == GuideRecord::Type::Step || r.step != 4)
                continue;
            // Whatever happened before the awaited event came out before the step that reports it (the clients of
            // this scenario run in the player's process: their records come in the order of their times).
            QVERIFY2(r.tMs >= await.tMs || i < awaitAt,
                qPrintable(QStringLiteral("%1 %2 at +%3 ms, after the await that ended at +%4 ms")
                               .arg(QString::fromUtf8(r.actor), QString::fromUtf8(r.op + r.script))
                               .arg(r.tMs)
                               .arg(await.tMs)));
            renewalsBefore += i < awaitAt && r.script == "renew-batch" ? 1 : 0;
        }
        QVERIFY2(renewalsBefore > 0, "A's watchdog renewed while B waited");
    }

    // The JSON's channel: receivers is who got the step's message (its PUBLISH's count), and only a step that
    // published has one; listeners is who listens once the step is done. G07: B hears A's unlock; nobody hears B's.
    void jsonChannelSaysWhoReceivedTheMessage()
    {
        const CliRun r = runCli({ QStringLiteral("guide"), QStringLiteral("G07"), QStringLiteral("--speed"),
                                    QStringLiteral("fast"), QStringLiteral("--json") },
            m_dir);
        CLI_EXIT(r, CliExit::Done);
        QMap<int, QJsonObject> channels;
        for (const QByteArray &line : r.out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QStringLiteral("type")).toString() == QLatin1String("step"))
                channels.insert(o.value(QStringLiteral("step")).toInt(), o.value(QStringLiteral("channel")).toObject());
        }
        QCOMPARE(channels.size(), 7);
        for (auto it = channels.cbegin(); it != channels.cend(); ++it) {
            QVERIFY2(it->contains(QStringLiteral("listeners")), qPrintable(QString::number(it.key())));
            const bool published = it->contains(QStringLiteral("message"));
            QCOMPARE(it->contains(QStringLiteral("receivers")), published);
            QCOMPARE(published, it.key() == 4 || it.key() == 7);
        }
        QCOMPARE(channels.value(3).value(QStringLiteral("listeners")).toInt(), 1); // B sleeps, subscribed
        QCOMPARE(channels.value(4).value(QStringLiteral("receivers")).toInt(), 1); // A's unlock reached B
        QCOMPARE(channels.value(7).value(QStringLiteral("receivers")).toInt(), 0); // B's reached nobody
        QCOMPARE(channels.value(7).value(QStringLiteral("listeners")).toInt(), 0);
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

    // On a server the console shares, other clients run their own scripts between the guided ones (EVALSHA, as
    // LockClient does): their calls are never taken for a guided script's.
    void callsStayOursBesideOtherScripts()
    {
        RawRedis raw(m_server.port());
        const QByteArray sha
            = raw.command({ "SCRIPT", "LOAD", "redis.call('type', KEYS[1]); return redis.call('exists', KEYS[1])" })
                  .bytes();
        RedisConnection other(ConnectionOptions::fromUrl(m_server.url()));
        QTimer busy;
        busy.setInterval(1);
        connect(&busy, &QTimer::timeout, &other, [&] { other.command({ "EVALSHA", sha, "1", "other:key" }); });
        busy.start();
        const Played played = play(*findScenario(QStringLiteral("G13")));
        busy.stop();
        QVERIFY2(played.error.isEmpty(), qPrintable(played.error));
        for (const GuideRecord &step : played.steps())
            QVERIFY2(!step.unexpected, qPrintable(step.seen.join(QStringLiteral("; "))));
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

    // The watchdog at Redisson's own 30 s: renewed every 10 s, held for one and a half leases.
    void watchdogAtRealSpeed()
    {
        // Fifty seconds of Redisson's real timing: its own ctest entry (tst_guide_realspeed, label slow) runs it, in
        // the release suite only.
        if (!qEnvironmentVariableIsSet("LOCKSCOPE_GUIDE_REAL_SPEED"))
            QSKIP("run by tst_guide_realspeed");
        const Played played = play(*findScenario(QStringLiteral("watchdog")), 30000);
        QVERIFY2(played.error.isEmpty(), qPrintable(played.error));
        for (const GuideRecord &step : played.steps())
            QVERIFY2(!step.unexpected, qPrintable(step.seen.join(QStringLiteral("; "))));
        int renewals = 0;
        for (const GuideRecord &r : played.records)
            renewals += r.script == "renew-batch" ? 1 : 0;
        QVERIFY2(renewals >= 4, qPrintable(QString::number(renewals))); // at 10, 20, 30 and 40 s
        verifyServerClean();
    }

    // The player itself refuses a read-only connection, whichever front-end started it: nothing is sent.
    void playerRefusesReadOnly()
    {
        ConnectionOptions connection = ConnectionOptions::fromUrl(m_server.url());
        connection.readOnly = true;
        GuidePlayer player(connection, GuidePlayer::Options {});
        QSignalSpy finished(&player, &GuidePlayer::finished);
        player.play(*findScenario(QStringLiteral("G02")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("read-only")));
        QVERIFY(finished.first().at(2).toBool());
        RawRedis raw(m_server.port());
        QCOMPARE(raw.command({ "EXISTS", "guided:myLock" }), RedisValue::integer(0));
    }

    // What a script reads: one JSON object per line, every step with the fields conventions.md lists.
    void cliJsonOnAPrivateServer()
    {
        const CliRun r = runCli({ QStringLiteral("guide"), QStringLiteral("not-held"), QStringLiteral("--speed"),
                                    QStringLiteral("fast"), QStringLiteral("--json") },
            m_dir);
        CLI_EXIT(r, CliExit::Done);
        int steps = 0;
        for (const QByteArray &line : r.out.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, line.constData());
            QCOMPARE(o.value(QStringLiteral("scenario")).toString(), QStringLiteral("G13"));
            if (o.value(QStringLiteral("type")).toString() != QLatin1String("step"))
                continue;
            ++steps;
            for (const char *field :
                { "step", "t_ms", "actor", "op", "keys", "argv", "reply", "state", "channel", "narration" })
                QVERIFY2(o.contains(QLatin1String(field)), qPrintable(field + QStringLiteral(" in ") + line));
            QVERIFY2(!o.value(QStringLiteral("unexpected")).toBool(), line.constData());
            if (o.contains(QStringLiteral("script")))
                QVERIFY2(!o.value(QStringLiteral("ran")).toArray().isEmpty(), line.constData());
        }
        QCOMPARE(steps, findScenario(QStringLiteral("G13"))->steps.size());
    }

    // Someone else's server: the demo writes only with --allow-writes, never under --read-only, and never where
    // guided:* keys already are; each refusal leaves the server as it was.
    void cliRefusalsChangeNothing()
    {
        RawRedis raw(m_server.port());
        QCOMPARE(raw.command({ "SET", "guided:mine", "keep" }), RedisValue::status("OK"));
        const QString url = m_server.url();
        const CliRun notAllowed
            = runCli({ QStringLiteral("guide"), QStringLiteral("G02"), QStringLiteral("--url"), url }, m_dir);
        CLI_REFUSED(notAllowed, CliExit::Refused, "--allow-writes");
        const CliRun readOnly = runCli({ QStringLiteral("guide"), QStringLiteral("G02"), QStringLiteral("--url"), url,
                                           QStringLiteral("--allow-writes"), QStringLiteral("--read-only") },
            m_dir);
        CLI_REFUSED(readOnly, CliExit::Refused, "read-only");
        const CliRun existing
            = runCli({ QStringLiteral("guide"), QStringLiteral("G02"), QStringLiteral("--url"), url,
                         QStringLiteral("--allow-writes"), QStringLiteral("--speed"), QStringLiteral("fast") },
                m_dir);
        CLI_REFUSED(existing, CliExit::Refused, "guided:*");
        QCOMPARE(raw.command({ "GET", "guided:mine" }), RedisValue::string("keep"));
        QCOMPARE(raw.command({ "EXISTS", "guided:myLock" }), RedisValue::integer(0));
        QCOMPARE(raw.command({ "DEL", "guided:mine" }), RedisValue::integer(1));
        const CliRun usage = runCli({ QStringLiteral("guide"), QStringLiteral("G99") }, m_dir);
        CLI_REFUSED(usage, CliExit::Usage, "guide --list");
    }

    // On a server given with --url there is no MONITOR: the calls are inferred and marked so, and the demo leaves
    // nothing behind.
    void cliOnAGivenServerInfersTheCalls()
    {
        const CliRun r = runCli({ QStringLiteral("guide"), QStringLiteral("G13"), QStringLiteral("--url"),
                                    m_server.url(), QStringLiteral("--allow-writes"), QStringLiteral("--speed"),
                                    QStringLiteral("fast"), QStringLiteral("--json") },
            m_dir);
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("\"ran_inferred\":true"), r.describe().constData());
        verifyServerClean();
    }

    void cliListsTheScenarios()
    {
        const CliRun r = runCli({ QStringLiteral("guide"), QStringLiteral("--list") }, m_dir);
        CLI_EXIT(r, CliExit::Done);
        for (const Scenario &s : scenarios()) {
            QVERIFY2(r.out.contains("\n" + s.id + "  ") || r.out.startsWith(s.id), r.describe().constData());
            QVERIFY(r.out.contains(s.slug));
        }
    }
};

QTEST_GUILESS_MAIN(TestGuide)
#include "tst_guide.moc"
