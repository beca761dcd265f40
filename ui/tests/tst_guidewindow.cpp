// The guided demo's window as a presenter uses it, on a real redis-server: Space plays, the arrow steps and waits,
// R restarts; the lock card, the channel and the lanes show what happened (the key deleted by the unlock, the
// message heard by one client, the waiter's critical section after the holder's, two owners at once after an expired
// lease); the wire log is a sound model; and the window in presenter mode, in English and in Chinese, as a picture.
#include "guide/guidepalette.h"
#include "guide/guidewindow.h"
#include "rawredis.h"
#include "redisserver.h"
#include "translations.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Guide;
using namespace LockScope::Test;

class TestGuideWindow : public QObject
{
    Q_OBJECT

    RedisServer m_server;

    std::unique_ptr<GuideWindow> makeWindow(const QString &scenario)
    {
        auto window = std::make_unique<GuideWindow>(ConnectionOptions::fromUrl(m_server.url()));
        window->setActorProgram(QStringLiteral(LOCKSCOPE_CLI_PATH), { QStringLiteral("guide-actor") });
        window->setTimeScaleMs(3000);
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
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
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
