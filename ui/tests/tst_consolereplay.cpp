// Last hour's locks, replayed in the console as a person looks at them. File › Replay the last hour opens the
// console's own recording. A moment typed into the moment field (and Return) shows the table as it stood then, with
// its holders (a screenshot of it is kept), and its contention page the hour before it. Home and End on the slider go
// to the first and last moments; a click on the slider goes where it points. A click on a lock's row opens its
// history page, where a click on its holder timeline goes to that moment and Ctrl+Right jumps to its next event.
// Space plays the recording to its end, and Space stops it. A file that is no recording says so. A real
// redis-server, the console's recording of the last hour.
#include "consolefixture.h"
#include "holdchart.h"
#include "models/keyedtablemodel.h"
#include "postgresserver.h"
#include "recording/recordingstore.h"
#include "replay/replayengine.h"
#include "replay/replaytablemodel.h"
#include "replaywindow.h"
#include "translations.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QSignalSpy>
#include <QSlider>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
QList<RecordedEvent> recorded(const QString &path, const QByteArray &name)
{
    RecordingStore store;
    QString error;
    return store.open(path, false, &error) ? store.history(name, -1, -1, &error) : QList<RecordedEvent> {};
}

qint64 firstOf(const QString &path, const QByteArray &name, const QByteArray &type)
{
    for (const RecordedEvent &e : recorded(path, name))
        if (e.type == type)
            return e.timeMs;
    return -1;
}

QModelIndex rowOf(QTableView *view, const QByteArray &name)
{
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QModelIndex i = view->model()->index(r, 0);
        if (i.data(ReplayTableModel::NameRole).toByteArray() == name)
            return i;
    }
    return {};
}

QList<QByteArray> ownersOf(QTableView *view, const QByteArray &name)
{
    return rowOf(view, name).data(ReplayTableModel::OwnersRole).value<QList<QByteArray>>();
}
} // namespace

class TestConsoleReplay : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        startConsoleTest(m_server, m_dir);
        QVERIFY(I18n::install(QStringLiteral("en")));
    }

    void theTableAtAChosenMoment()
    {
        const QString path = m_dir.filePath(QStringLiteral("console.sqlite"));
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        recordConsole(c, m_server, path);
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.isSnapshotComplete(), 30000);

        // A, then B, taken by a service; then A deleted. Each step recorded before the next.
        RawRedis raw(m_server.port());
        const QByteArray a = uniqueKey("replay-a"), b = uniqueKey("replay-b");
        holdAsSomeoneElse(raw, a);
        QTRY_VERIFY_WITH_TIMEOUT(firstOf(path, a, "acquired") > 0, 30000);
        holdAsSomeoneElse(raw, b);
        QTRY_VERIFY_WITH_TIMEOUT(firstOf(path, b, "acquired") > 0, 30000);
        raw.command({ "DEL", a });
        QTRY_VERIFY_WITH_TIMEOUT(recorded(path, a).size() >= 2, 30000);
        const qint64 aTaken = firstOf(path, a, "acquired"), bTaken = firstOf(path, b, "acquired");
        const qint64 aGone = recorded(path, a).last().timeMs;
        QVERIFY(aTaken <= bTaken && bTaken < aGone);

        // File › Replay the last hour.
        QAction *replay = nullptr;
        for (QAction *action : c.window.findChildren<QAction *>())
            if (action->text() == QStringLiteral("Replay the &last hour"))
                replay = action;
        QVERIFY(replay);
        replay->trigger();
        QPointer<ReplayWindow> w = c.window.replayWindow();
        QVERIFY(w);
        QVERIFY(QTest::qWaitForWindowExposed(w));
        QTRY_VERIFY_WITH_TIMEOUT(w->isLoaded(), 30000);
        QVERIFY2(w->info().error.isEmpty(), qPrintable(w->info().error));
        QCOMPARE(w->serverBox()->currentText(), m_server.url());
        QTRY_VERIFY(!w->engine()->busy());
        QCOMPARE(w->shownMs(), w->info().lastMs); // it opens on the end of the recording

        // A moment typed (a time alone: on the day shown), and Return: both held, by the service.
        const qint64 moment = (bTaken + aGone) / 2;
        QLineEdit *field = w->momentField();
        field->setFocus();
        QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
        const qint64 noon
            = QDateTime(QDateTime::fromMSecsSinceEpoch(w->momentMs()).date(), QTime(12, 0)).toMSecsSinceEpoch();
        QTest::keyClicks(field, QStringLiteral("12:00"));
        QTest::keyClick(field, Qt::Key_Return);
        // Noon of the day shown; outside the recording (it lasts seconds): its nearest end.
        QCOMPARE(w->momentMs(), qBound(w->info().firstMs, noon, w->info().lastMs));
        QCOMPARE(field->text(),
            QDateTime::fromMSecsSinceEpoch(w->momentMs()).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")));
        QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(field, QDateTime::fromMSecsSinceEpoch(moment).toString(QStringLiteral("HH:mm:ss.zzz")));
        QTest::keyClick(field, Qt::Key_Return);
        QTRY_COMPARE(w->shownMs(), moment);
        QTRY_VERIFY(!w->engine()->busy());
        QCOMPARE(ownersOf(w->locksView(), a), QList<QByteArray> { kTheirs });
        QCOMPARE(ownersOf(w->locksView(), b), QList<QByteArray> { kTheirs });
        QVERIFY2(
            w->statusLabel()->text().contains(QStringLiteral("2 locks, 2 held")), qPrintable(w->statusLabel()->text()));
        const QImage image = w->grab().toImage();
        QVERIFY(image.save(QStringLiteral("%1/replay-at-a-moment.png").arg(QStringLiteral(QT_TESTCASE_BUILDDIR))));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));

        // The contention page, clicked: the hour before the moment, folded from the recording (A and B taken once).
        QSignalSpy contention(w.data(), &ReplayWindow::contentionShown);
        QTabBar *tabs = w->pages()->tabBar();
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(2).center());
        QTRY_COMPARE_WITH_TIMEOUT(contention.size(), 1, 30000);
        QCOMPARE(w->contentionShownMs(), moment);
        KeyedTableModel *hot = w->contentionModel();
        const int acquisitions = hot->columnOf("acquisitions");
        for (const QByteArray &name : { a, b }) {
            const int row = hot->rowOf(name);
            QVERIFY2(row >= 0, name.constData());
            QCOMPARE(hot->index(row, acquisitions).data(KeyedTableModel::SortRole).toLongLong(), qint64(1));
        }
        w->pages()->setCurrentIndex(0);

        // The slider: End is the last moment (A gone, B held), Home the first (B not yet taken).
        QSlider *slider = w->slider();
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_End);
        QTRY_COMPARE(w->shownMs(), w->info().lastMs);
        QTRY_VERIFY(!w->engine()->busy());
        QVERIFY(!rowOf(w->locksView(), a).isValid());
        QCOMPARE(ownersOf(w->locksView(), b), QList<QByteArray> { kTheirs });
        QTest::keyClick(slider, Qt::Key_Home);
        QTRY_COMPARE(w->shownMs(), w->info().firstMs);
        QTRY_VERIFY(!w->engine()->busy());
        QVERIFY(w->info().firstMs < bTaken);
        QVERIFY(!rowOf(w->locksView(), b).isValid());
        // A click on the slider's middle goes to the middle of the recording, not a page towards it.
        QTest::mouseClick(slider, Qt::LeftButton, {}, slider->rect().center());
        QTRY_VERIFY(!w->engine()->busy());
        const qint64 span = w->info().lastMs - w->info().firstMs;
        QVERIFY2(w->momentMs() > w->info().firstMs + span / 4 && w->momentMs() < w->info().lastMs - span / 4,
            qPrintable(QString::number(w->momentMs() - w->info().firstMs)));

        // B's row clicked at the end: its history page; from the first moment, Ctrl+Right goes to its acquisition.
        QTest::keyClick(slider, Qt::Key_End);
        QTRY_VERIFY(!w->engine()->busy());
        const QModelIndex bRow = rowOf(w->locksView(), b);
        QVERIFY(bRow.isValid());
        QSignalSpy historyShown(w.data(), &ReplayWindow::historyShown);
        QTest::mouseClick(w->locksView()->viewport(), Qt::LeftButton, {}, w->locksView()->visualRect(bRow).center());
        QTRY_COMPARE(historyShown.size(), 1);
        QCOMPARE(w->selectedLock(), b);
        QVERIFY(w->historyModel()->rowCount() >= 1);
        QCOMPARE(w->historyModel()->events().first().type, QByteArray("acquired"));
        QCOMPARE(w->pages()->currentIndex(), 0);
        // Its holder timeline: a click on it goes to that moment ("held by whom then").
        HoldChart *chart = w->holdChart();
        const QPoint middle = chart->rect().center();
        QTRY_VERIFY(chart->timeAt(middle.x()) >= 0);
        const qint64 clicked = chart->timeAt(middle.x());
        QTest::mouseClick(chart, Qt::LeftButton, {}, middle);
        QCOMPARE(w->momentMs(), qBound(w->info().firstMs, clicked, w->info().lastMs));
        QTRY_COMPARE(w->shownMs(), w->momentMs());
        QTRY_VERIFY(!w->engine()->busy());
        QCOMPARE(rowOf(w->locksView(), b).isValid(), w->momentMs() >= bTaken);
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Home);
        QTRY_VERIFY(!w->engine()->busy());
        QCOMPARE(w->selectedLock(), QByteArray()); // B was not there yet
        QTest::keyClick(w.data(), Qt::Key_Right, Qt::ControlModifier); // the history page's lock
        QTRY_COMPARE(w->momentMs(), bTaken);
        QTRY_VERIFY(!w->engine()->busy());
        QCOMPARE(ownersOf(w->locksView(), b), QList<QByteArray> { kTheirs });

        // Space plays (at 60×) from there to the end, where it stops; Space again stops it before that.
        w->speedBox()->setCurrentIndex(w->speedBox()->count() - 1);
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Space);
        QVERIFY(w->playAction()->isChecked());
        QTRY_VERIFY(!w->playAction()->isChecked());
        QCOMPARE(w->momentMs(), w->info().lastMs);
        QTRY_COMPARE(w->shownMs(), w->info().lastMs);
        QTest::keyClick(slider, Qt::Key_Home);
        QTest::keyClick(slider, Qt::Key_Space);
        QVERIFY(w->playAction()->isChecked());
        QTest::keyClick(slider, Qt::Key_Space);
        QVERIFY(!w->playAction()->isChecked());
        QCOMPARE(w->momentMs(), w->info().firstMs);
        w->close();
        QTRY_VERIFY(!w);
    }

    // A team's shared recording in PostgreSQL, as the recorders wrote it: File › Open a shared recording…, the URL
    // typed (its password nowhere in the window), and the table at a moment of it.
    void aSharedRecordingInPostgres()
    {
        if (PostgresServer::binDir().isEmpty()) {
            if (PostgresServer::required())
                QFAIL("PostgreSQL is not installed and LOCKSCOPE_REQUIRE_POSTGRES is set (Debian: postgresql)");
            QSKIP("PostgreSQL is not installed (Debian: postgresql); LOCKSCOPE_REQUIRE_POSTGRES=1 fails instead");
        }
        PostgresServer postgres;
        QString error;
        QVERIFY2(postgres.start(&error), qPrintable(error));
        const QString database = postgres.createDatabase(&error);
        QVERIFY2(!database.isEmpty(), qPrintable(error));
        const QByteArray server = "redis://10.0.3.2:6379/0", name = "orders:42";
        const qint64 t0 = 1764300000000;
        {
            RecordingStore store;
            QVERIFY2(store.open(postgres.url(database), true, &error), qPrintable(error));
            QVERIFY2(store.append({ RecordedEvent { t0, server, "acquired", name, kTheirs, {}, 1, 30000, -1,
                                        "reentrant", "redisson", {} },
                                      RecordedEvent { t0 + 5000, server, "released", name, kTheirs, {}, 0, -2, -1,
                                          "reentrant", "redisson", {} } },
                         &error),
                qPrintable(error));
        }
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QAction *open = nullptr;
        for (QAction *action : c.window.findChildren<QAction *>())
            if (action->text() == QStringLiteral("Open a s&hared recording…"))
                open = action;
        QVERIFY(open);
        // The password in the URL as typed: libpq's trust authentication ignores it; the window never shows it.
        QString url = postgres.url(database);
        url.replace(QStringLiteral("lockscope@"), QStringLiteral("lockscope:s3cret@"));
        QTimer::singleShot(0, this, [url] {
            QDialog *dialog = openDialog();
            QVERIFY(dialog);
            auto *field = dialog->findChild<QLineEdit *>();
            QVERIFY(field);
            field->selectAll();
            QTest::keyClicks(field, url);
            QTest::keyClick(field, Qt::Key_Return);
        });
        open->trigger();
        QPointer<ReplayWindow> w = c.window.replayWindow();
        QVERIFY(w);
        QTRY_VERIFY_WITH_TIMEOUT(w->isLoaded(), 30000);
        QVERIFY2(w->info().error.isEmpty(), qPrintable(w->info().error));
        QVERIFY2(!w->windowTitle().contains(QStringLiteral("s3cret")), qPrintable(w->windowTitle()));
        QCOMPARE(w->serverBox()->currentText(), QString::fromUtf8(server));
        w->seekTo(t0 + 1000);
        QTRY_COMPARE(w->shownMs(), t0 + 1000);
        QTRY_VERIFY(!w->engine()->busy());
        QCOMPARE(ownersOf(w->locksView(), name), QList<QByteArray> { kTheirs });
        QVERIFY(!w->statusLabel()->text().contains(QStringLiteral("s3cret")));
        w->close();
    }

    void aFileThatIsNoRecordingSaysSo()
    {
        const QString junk = m_dir.filePath(QStringLiteral("notes.sqlite"));
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("shopping list\n");
        f.close();
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        QPointer<ReplayWindow> w = c.window.openReplay(junk);
        QTRY_VERIFY_WITH_TIMEOUT(w->isLoaded(), 30000);
        QVERIFY2(w->statusLabel()->text().contains(QStringLiteral("not a LockScope recording")),
            qPrintable(w->statusLabel()->text()));
        QVERIFY(!w->slider()->isEnabled());
        QCOMPARE(w->locksModel()->rowCount(), 0);
        QCOMPARE(f.size(), qint64(14));
        w->close();
    }
};

QTEST_MAIN(TestConsoleReplay)
#include "tst_consolereplay.moc"
