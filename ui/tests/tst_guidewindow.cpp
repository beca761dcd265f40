// The guided demo's window as a presenter uses it, on a real redis-server: Space plays, the arrow steps and waits,
// R restarts; the lock card, the channel and the lanes show what happened (the key deleted by the unlock, the
// message heard by one client, the waiter's critical section after the holder's, two owners at once after an expired
// lease); the wire log is a sound model; and the window in presenter mode, in English and in Chinese, as a picture.
#include "clirun.h"
#include "guide/actorlanes.h"
#include "guide/guidepalette.h"
#include "guide/guideplayer.h"
#include "guide/guidewindow.h"
#include "guide/lockcard.h"
#include "rawredis.h"
#include "redisserver.h"
#include "translations.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace LockScope;
using namespace LockScope::Guide;
using namespace LockScope::Test;

class TestGuideWindow : public QObject
{
    Q_OBJECT

    RedisServer m_server;
    QTemporaryDir m_dir;

    // The process scenarios' clients are lockscope-cli's hidden guide-actor, as the app starts them, but with their
    // standard error in a file (exec keeps the pid the player signals the CLI's own): cleanup() fails the test on a
    // sanitizer's report in it, which an actor killed on purpose could not report through its exit.
    QString actorErrors() const { return m_dir.filePath(QStringLiteral("actors.stderr")); }

    std::unique_ptr<GuideWindow> makeWindow(const QString &scenario)
    {
        auto window = std::make_unique<GuideWindow>(ConnectionOptions::fromUrl(m_server.url()));
        window->setActorProgram(QStringLiteral("/bin/sh"), actorArgumentsWritingErrorsTo(actorErrors()));
        window->setTimeScaleMs(3000);
        // Paced as Play paces for people, only faster: the tests that look at pacing set their own.
        window->setPacing(50, 1);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return nullptr;
        if (!window->selectScenario(scenario))
            return nullptr;
        return window;
    }

    // Nothing of the demo is left on the server.
    void verifyServerClean()
    {
        RawRedis raw(m_server.port());
        QCOMPARE(raw.command({ "KEYS", "guided:*" }).size(), 0);
    }

private slots:
    void initTestCase()
    {
        I18n::install(QStringLiteral("en"));
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    // What the actors said on standard error during the test: shown, and a sanitizer's report fails it.
    void cleanup()
    {
        QVERIFY2(!sanitizerReportedInFile(actorErrors(), "the guide's actors"),
            "a sanitizer reported an error in a guide actor (above)");
    }

    // Space plays G07 through; the stage then shows the holder's unlock deleting the key and its message heard by one
    // client, the waiter holding after the holder with no overlap, and a wire log that passes the model checks.
    void spacePlaysAndTheStageShowsIt()
    {
        auto window = makeWindow(QStringLiteral("G07"));
        QVERIFY(window);
        QAbstractItemModelTester tester(window->logModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(window.get(), &GuideWindow::finished);
        QTest::keyClick(window.get(), Qt::Key_Space);
        QVERIFY(window->isPlaying());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished.first().at(0).toInt(), 0);
        QVERIFY2(finished.first().at(1).toString().isEmpty(), qPrintable(finished.first().at(1).toString()));
        const GuideStage &stage = window->stage();
        QCOMPARE(stage.cards().size(), 1);
        QCOMPARE(stage.cards().first().gone, QStringLiteral("deleted by unlock"));
        QCOMPARE(stage.cards().first().holder, QStringLiteral("B1"));
        QVERIFY(!stage.pulses().isEmpty());
        QCOMPARE(stage.pulses().first().from, QByteArray("A1"));
        QCOMPARE(stage.pulses().first().receivers, 1);
        QCOMPARE(stage.listeners(), 0);
        const GuideStage::Lane &a = stage.lanes().at(0);
        const GuideStage::Lane &b = stage.lanes().at(1);
        QCOMPARE(a.sections.size(), 1);
        QCOMPARE(b.sections.size(), 1);
        QVERIFY(b.sections.first().startMs >= a.sections.first().endMs);
        QVERIFY(stage.overlaps(b.sections.first().endMs).isEmpty());
        QVERIFY(window->logModel()->rowCount() > 5);
        QVERIFY2(window->statusText().contains(QStringLiteral("every step went as narrated")),
            qPrintable(window->statusText()));
        verifyServerClean();
    }

    // → starts in step mode and waits before the next step; → runs it; R starts again from the first step; Space goes
    // on step by step to the end.
    void arrowStepsAndRRestarts()
    {
        auto window = makeWindow(QStringLiteral("G02"));
        QVERIFY(window);
        QSignalSpy finished(window.get(), &GuideWindow::finished);
        const qsizetype steps = window->stage().scenario().steps.size();
        QTest::keyClick(window.get(), Qt::Key_Right);
        QTRY_VERIFY_WITH_TIMEOUT(window->isWaitingForStep(), 20000);
        QCOMPARE(window->logModel()->rowCount(), 0); // G02's first step only looks
        QVERIFY(window->statusText().contains(QStringLiteral("Step 2 of")));
        QTest::keyClick(window.get(), Qt::Key_Right);
        QTRY_VERIFY_WITH_TIMEOUT(window->statusText().contains(QStringLiteral("Step 3 of")), 20000);
        QCOMPARE(
            window->stage().cards().first().state.field("ff161e99-fd06-42f9-8bf0-1b34d803c1a7:1"), QByteArray("1"));
        QTest::keyClick(window.get(), Qt::Key_R);
        QTRY_VERIFY_WITH_TIMEOUT(window->statusText().contains(QStringLiteral("Step 2 of")), 20000);
        QVERIFY(!window->stage().cards().first().state.exists()); // back before the acquire
        for (int i = 0; i < steps && finished.isEmpty(); ++i) {
            QTRY_VERIFY_WITH_TIMEOUT(window->isWaitingForStep() || !finished.isEmpty(), 20000);
            if (finished.isEmpty())
                QTest::keyClick(window.get(), Qt::Key_Space);
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished.first().at(0).toInt(), 0);
        QCOMPARE(window->stage().cards().first().gone, QStringLiteral("deleted by unlock"));
        verifyServerClean();
    }

    // A hand-over: A's unlock wakes B, whose acquire the reading after A's step may already hold. The card shows B's
    // count as Redis holds it, 1, not one more than the reading said.
    void handOverShowsTheNewOwnersOwnCount()
    {
        const Scenario &wakes = *findScenario(QStringLiteral("G07"));
        GuideStage stage;
        stage.reset(wakes, 3000);
        const QByteArray a = "ff161e99-fd06-42f9-8bf0-1b34d803c1a7:1";
        const QByteArray b = "b983c153-8e53-4c04-beb8-0c34d6e0237d:132";
        // An acquire script's record as the player makes it: it found no key, so the owner's field is its first level.
        const auto acquired
            = [](GuideRecord::Type type, int step, qint64 tMs, const QByteArray &actor, const QByteArray &owner) {
                  GuideRecord r;
                  r.type = type;
                  r.step = step;
                  r.tMs = tMs;
                  r.actor = actor;
                  r.op = "EVAL";
                  r.script = "acquire";
                  r.keys = { "guided:myLock" };
                  r.argv = { "3000", owner };
                  r.hasReply = true;
                  r.reply = RedisValue::nil();
                  r.calls = { "exists", "hincrby", "pexpire" };
                  return r;
              };
        GuideRecord held = acquired(GuideRecord::Type::Step, 1, 0, "A1", a);
        KeyState afterA { "guided:myLock", "hash", { { a, "1" } }, {}, 3000 };
        held.state = { afterA };
        stage.apply(held);
        // A's unlock; B was woken and took the lock before the state was read.
        GuideRecord unlock = held;
        unlock.step = 4;
        unlock.tMs = 1500;
        unlock.script = "unlock-4";
        unlock.argv = { "0", "3000", a, "publish", "17000" };
        unlock.reply = RedisValue::integer(1);
        unlock.calls = { "get", "hexists", "hincrby", "del", "publish", "set" };
        KeyState afterB { "guided:myLock", "hash", { { b, "1" } }, {}, 3000 };
        unlock.state = { afterB };
        stage.apply(unlock);
        // B's acquire comes in after that step: the script found no key.
        stage.apply(acquired(GuideRecord::Type::Wire, 4, 1502, "B1", b));
        LockCard card(&stage);
        const QStringList rows = card.rows(0);
        QCOMPARE(rows.size(), 1);
        QVERIFY2(rows.first().startsWith(QStringLiteral("B1 ")) && rows.first().endsWith(QStringLiteral("→  1")),
            qPrintable(rows.first()));
        QCOMPARE(card.countText(0), QStringLiteral("1"));
    }

    // G01's string lock has a value, not a hold count: its card shows the owner and no big number; part three's
    // Redisson lock shows its count.
    void stringLockShowsNoHoldCount()
    {
        const Scenario &naive = *findScenario(QStringLiteral("G01"));
        GuideStage stage;
        stage.reset(naive, 3000);
        GuideRecord set;
        set.type = GuideRecord::Type::Step;
        set.step = 1;
        set.actor = "A1";
        set.op = "SET";
        set.keys = { "guided:naive", "ff161e99-fd06-42f9-8bf0-1b34d803c1a7:1", "NX", "PX", "3000" };
        set.hasReply = true;
        set.reply = RedisValue::status("OK");
        set.state = { KeyState { "guided:naive", "string", {}, "ff161e99-fd06-42f9-8bf0-1b34d803c1a7:1", 3000 },
            KeyState { "guided:myLock", "hash", { { "ff161e99-fd06-42f9-8bf0-1b34d803c1a7:1", "5" } }, {}, 3000 } };
        stage.apply(set);
        LockCard card(&stage);
        QCOMPARE(card.rows(0).size(), 1);
        QVERIFY(card.countText(0).isEmpty());
        QCOMPARE(card.countText(1), QStringLiteral("5"));
    }

    // G11 in the window: while B sleeps, subscribed to the channel, the channel says one client listens (B's SUBSCRIBE
    // came after its step's reading, which saw nobody).
    void channelCountsTheWaiterWhileItSleeps()
    {
        auto window = makeWindow(QStringLiteral("G11"));
        QVERIFY(window);
        QSignalSpy finished(window.get(), &GuideWindow::finished);
        QTest::keyClick(window.get(), Qt::Key_Space);
        const auto sleeping = [&] {
            const auto &lanes = window->stage().lanes();
            return lanes.size() == 2 && lanes.at(1).state == GuideStage::LaneState::Sleeping;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sleeping() || !finished.isEmpty(), 60000);
        QVERIFY(finished.isEmpty());
        QCOMPARE(window->stage().listeners(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished.first().at(0).toInt(), 0);
        QCOMPARE(window->stage().listeners(), 0);
        verifyServerClean();
    }

    // G01 in Play: its runs of instant steps come at least the window's gap apart (a live one at most a sixth of T,
    // as its TTLs run on), so that each can be followed; and every step still goes as narrated.
    void playPacesInstantSteps()
    {
        auto window = makeWindow(QStringLiteral("G01"));
        QVERIFY(window);
        GuideWindow defaults(ConnectionOptions::fromUrl(m_server.url()));
        QVERIFY(defaults.minGapMs() >= 500);
        QVERIFY(defaults.readingMsPerChar() > 0);
        const int gap = 400;
        window->setPacing(gap, 0);
        QSignalSpy finished(window.get(), &GuideWindow::finished);
        QTest::keyClick(window.get(), Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 90000);
        QCOMPARE(finished.first().at(0).toInt(), 0);
        const QList<Step> &steps = window->stage().scenario().steps;
        const QList<GuideRecord> &narrated = window->narrated();
        QCOMPARE(narrated.size(), steps.size());
        int paced = 0;
        for (int i = 1; i < steps.size(); ++i) {
            const Step &step = steps.at(i);
            if (step.at >= 0 || step.action == Step::Action::Await)
                continue;
            const qint64 least = step.live ? qMin(gap, 3000 / 6) : gap;
            const qint64 apart = narrated.at(i).tMs - narrated.at(i - 1).tMs;
            QVERIFY2(apart >= least,
                qPrintable(QStringLiteral("step %1 came %2 ms after step %3").arg(i + 1).arg(apart).arg(i)));
            ++paced;
        }
        QVERIFY(paced >= 10);
        verifyServerClean();
    }

    // Play leaves each narration on screen for its reading time before a step that may wait (G02's steps are T/10
    // to T/5 apart on the schedule); stepping by hand is the presenter's pace.
    void playLeavesTimeToRead()
    {
        auto window = makeWindow(QStringLiteral("G02"));
        QVERIFY(window);
        const int perChar = 8;
        window->setPacing(0, perChar);
        QSignalSpy finished(window.get(), &GuideWindow::finished);
        QTest::keyClick(window.get(), Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 90000);
        QCOMPARE(finished.first().at(0).toInt(), 0);
        const QList<GuideRecord> &narrated = window->narrated();
        QCOMPARE(narrated.size(), window->stage().scenario().steps.size());
        for (int i = 1; i < narrated.size(); ++i) {
            const qint64 reading = GuidePlayer::readingMs(narrated.at(i - 1).narration, perChar);
            QVERIFY(reading > 0);
            const qint64 apart = narrated.at(i).tMs - narrated.at(i - 1).tMs;
            QVERIFY2(apart >= reading,
                qPrintable(QStringLiteral("step %1 came %2 ms after a narration of %3 ms")
                               .arg(i + 1)
                               .arg(apart)
                               .arg(reading)));
        }
        verifyServerClean();
    }

    // Space while playing pauses before the next step that may wait; Space again plays on to the end.
    void spacePausesPlay()
    {
        auto window = makeWindow(QStringLiteral("G02"));
        QVERIFY(window);
        QSignalSpy finished(window.get(), &GuideWindow::finished);
        QTest::keyClick(window.get(), Qt::Key_Space);
        QVERIFY(window->isPlaying());
        QTest::keyClick(window.get(), Qt::Key_Space);
        QVERIFY(window->isPaused());
        QTRY_VERIFY_WITH_TIMEOUT(window->isWaitingForStep() || !finished.isEmpty(), 20000);
        QVERIFY(finished.isEmpty());
        QVERIFY2(window->statusText().contains(QStringLiteral("Paused")), qPrintable(window->statusText()));
        const qsizetype before = window->narrated().size();
        QVERIFY(before < window->stage().scenario().steps.size());
        QTest::keyClick(window.get(), Qt::Key_Space);
        QVERIFY(!window->isPaused());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished.first().at(0).toInt(), 0);
        QCOMPARE(window->narrated().size(), window->stage().scenario().steps.size());
        verifyServerClean();
    }

    // Presenter mode at a projector's 1280x720: the lanes keep two lines per actor and the wire log shows several
    // rows, in the presenter's large type (nothing squeezed to a sliver), in both languages.
    void presenterModeKeepsLanesAndLogReadable_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void presenterModeKeepsLanesAndLogReadable()
    {
        QFETCH(QString, lang);
        QVERIFY(I18n::install(lang));
        auto window = makeWindow(QStringLiteral("G10")); // four actors: the tallest lanes
        QVERIFY(window);
        const int baseHeight = window->fontMetrics().height();
        QTest::keyClick(window.get(), Qt::Key_F5);
        QTRY_COMPARE(window->size(), QSize(1280, 720));
        QCoreApplication::processEvents();
        const ActorLanes *actors = window->findChild<ActorLanes *>();
        const QTreeView *log = window->findChild<QTreeView *>(); // the wire log, the window's only tree
        QVERIFY(actors && log);
        const int line = actors->fontMetrics().height();
        QVERIFY2(line > baseHeight, qPrintable(QStringLiteral("%1 <= %2").arg(line).arg(baseHeight)));
        qInfo("lanes %dx%d line %d, log %dx%d row %d", actors->width(), actors->height(), line,
            log->viewport()->width(), log->viewport()->height(), log->fontMetrics().height());
        // Each actor's lane: its name and its state, on two lines at least, plus the caption and the axis.
        const int lanesNeeded = line * (2 * int(window->stage().lanes().size()) + 2);
        QVERIFY2(actors->height() >= lanesNeeded,
            qPrintable(QStringLiteral("lanes %1 px high, %2 needed").arg(actors->height()).arg(lanesNeeded)));
        QVERIFY(actors->width() >= actors->fontMetrics().averageCharWidth() * 60);
        // The wire log: its header and at least five rows of the large type.
        QVERIFY(log->fontMetrics().height() > baseHeight);
        const int rowsShown = log->viewport()->height() / (log->fontMetrics().height() + log->fontMetrics().descent());
        QVERIFY2(rowsShown >= 5, qPrintable(QStringLiteral("%1 rows of the wire log").arg(rowsShown)));
        QVERIFY(log->viewport()->width() >= log->fontMetrics().averageCharWidth() * 60);
        // All of it within the projector's 720 lines: the window did not grow past them.
        QCOMPARE(window->size(), QSize(1280, 720));
        QVERIFY2(
            window->minimumSizeHint().height() <= 720, qPrintable(QString::number(window->minimumSizeHint().height())));
    }

    // The window in presenter mode at a projector's 1280x720 after G12, in both languages: a picture with the card's
    // tombstone, the lanes and the red band of two owners at once.
    void presenterScreenshot_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("title");
        // English first: a later English translator holds only plural forms and would hide nothing of Chinese.
        QTest::newRow("en") << QStringLiteral("en") << QStringLiteral("Guided demo");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN") << QStringLiteral("引导演示");
    }
    void presenterScreenshot()
    {
        QFETCH(QString, lang);
        QFETCH(QString, title);
        QVERIFY(I18n::install(lang));
        auto window = makeWindow(QStringLiteral("G12"));
        QVERIFY(window);
        QVERIFY2(window->windowTitle().contains(title), qPrintable(window->windowTitle()));
        QTest::keyClick(window.get(), Qt::Key_F5);
        QSignalSpy finished(window.get(), &GuideWindow::finished);
        QTest::keyClick(window.get(), Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished.first().at(0).toInt(), 0);
        QVERIFY(!window->stage().overlaps(0).isEmpty());
        const QImage image = window->grab().toImage();
        QCOMPARE(image.size(), QSize(1280, 720));
        const QString file = QStringLiteral("%1/guide-window-%2.png").arg(QStringLiteral(QT_TESTCASE_BUILDDIR), lang);
        QVERIFY(image.save(file));
        // Not a blank window: the overlap band's red is in the picture, and so are many other colours.
        QSet<QRgb> colours;
        bool red = false;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3) {
                const QColor c = image.pixelColor(x, y);
                colours.insert(c.rgb());
                red = red || (c.red() > 200 && c.green() < 200 && c.blue() < 200 && c.red() - c.green() > 40);
            }
        }
        QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
        QVERIFY(red);
        verifyServerClean();
    }
};

QTEST_MAIN(TestGuideWindow)
#include "tst_guidewindow.moc"
