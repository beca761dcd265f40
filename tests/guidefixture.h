#pragma once

// What the guided demo's suites share (tst_guide, tst_guideprocess): a private redis-server, a scenario played to its
// end with every record kept, the process clients' standard error checked for a sanitizer's report, and the check
// that nothing of the demo is left on the server.
#include "clirun.h"
#include "guide/guideplayer.h"
#include "rawredis.h"
#include "redisserver.h"

#include <QTemporaryDir>
#include <QTest>

#include <functional>

namespace LockScope::Test {

struct Played
{
    QList<Guide::GuideRecord> records;
    int unexpected = -1;
    QString error;

    QList<Guide::GuideRecord> steps() const
    {
        QList<Guide::GuideRecord> out;
        for (const Guide::GuideRecord &r : records) {
            if (r.type == Guide::GuideRecord::Type::Step)
                out << r;
        }
        return out;
    }
    const Guide::GuideRecord *event(const QByteArray &actor, Guide::ActorEvent event) const
    {
        for (const Guide::GuideRecord &r : records) {
            if (r.type == Guide::GuideRecord::Type::Event && r.actor == actor && r.event == event)
                return &r;
        }
        return nullptr;
    }
};

class GuideFixture
{
protected:
    void setUpFixture()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
    }

    // What the actors said on standard error during the test function: shown, and a sanitizer's report fails it.
    void checkActorErrors()
    {
        QVERIFY2(!sanitizerReportedInFile(actorErrors(), "the guide's actors"),
            "a sanitizer reported an error in a guide actor (above)");
    }

    Played play(const Guide::Scenario &scenario, int timeScaleMs = 3000, bool ownServer = true,
        const std::function<void(const Guide::GuideRecord &)> &watch = {})
    {
        Guide::GuidePlayer::Options options;
        options.timeScaleMs = timeScaleMs;
        options.ownServer = ownServer;
        withActorProgram(options);
        Guide::GuidePlayer player(ConnectionOptions::fromUrl(m_server.url()), options);
        Played played;
        bool done = false;
        QObject::connect(&player, &Guide::GuidePlayer::record, &player, [&](const Guide::GuideRecord &r) {
            played.records << r;
            if (watch)
                watch(r);
        });
        QObject::connect(
            &player, &Guide::GuidePlayer::finished, &player, [&](int unexpected, const QString &error, bool) {
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
    void withActorProgram(Guide::GuidePlayer::Options &options) const
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

    RedisServer m_server;
    QTemporaryDir m_dir;
};

} // namespace LockScope::Test
