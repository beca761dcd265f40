// The guided demo on a real redis-server: every scenario plays at T = 3 s with every expectation met (so every
// narration is true), the wake-ups and the mis-delete show what they claim, the watchdog at true scale, and
// lockscope-cli guide as a person and a script use it, including the refusals that leave a server untouched.
#include "clirun.h"
#include "guide/guidejson.h"
#include "guide/guideplayer.h"
#include "guidefixture.h"
#include "rawredis.h"
#include "redis/redisconnection.h"
#include "redisserver.h"
#include "testutil.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

using namespace LockScope;
using namespace LockScope::Guide;
using namespace LockScope::Test;

class TestGuide : public QObject, protected GuideFixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUpFixture(); }
    void cleanup() { checkActorErrors(); }

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
