// The console on a 1280x800 screen (the offscreen platform given that one screen): the first window fits the
// screen's available area with its status bar on screen, the "Why" text and the holder chart are not clipped, and the
// locks table's main columns are as wide as what they show. Against a real redis-server.
#include "consolefixture.h"
#include "detailpane.h"
#include "holdchart.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QScreen>
#include <QScrollBar>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestConsoleFit : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    // Whether widget is wholly inside its window and every ancestor's area: nothing of it cut off.
    static bool wholeOnScreen(const QWidget *widget)
    {
        const QRect own(widget->mapTo(widget->window(), QPoint(0, 0)), widget->size());
        for (const QWidget *w = widget->parentWidget(); w; w = w->parentWidget()) {
            const QRect area(w->mapTo(widget->window(), QPoint(0, 0)), w->size());
            if (!area.contains(own))
                return false;
        }
        return true;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", m_dir.filePath(QStringLiteral("audit.log")).toUtf8());
        QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), QSize(1280, 800));
    }

    void fitsA1280x800Screen()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()), Console::fastMonitor(), 60000);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("fit") + ":a-rather-long-lock-name-for-orders-of-customer-4711";
        raw.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731", "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        c.select(name);
        QVERIFY(QTest::qWaitForWindowExposed(&c.window));

        const QRect available = c.window.screen()->availableGeometry();
        QVERIFY2(available.contains(c.window.frameGeometry()),
            qPrintable(QStringLiteral("window %1x%2 at %3,%4 on %5x%6")
                           .arg(c.window.frameGeometry().width())
                           .arg(c.window.frameGeometry().height())
                           .arg(c.window.frameGeometry().x())
                           .arg(c.window.frameGeometry().y())
                           .arg(available.width())
                           .arg(available.height())));
        QVERIFY(c.window.statusBar()->isVisible());
        QVERIFY(wholeOnScreen(c.window.statusBar()));

        // The detail pane: the "Why" text as tall as its wrapped lines need, the chart at least its minimum.
        DetailPane *detail = c.window.detailPane();
        QLabel *why = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (QLabel *label : detail->findChildren<QLabel *>())
                    if (label->text().contains(QStringLiteral("Why ")))
                        why = label;
                return why != nullptr;
            }(),
            10000);
        QVERIFY(wholeOnScreen(why));
        QVERIFY2(why->height() >= why->heightForWidth(why->width()),
            qPrintable(QStringLiteral("Why text %1 px tall, needs %2")
                           .arg(why->height())
                           .arg(why->heightForWidth(why->width()))));
        auto *chart = detail->findChild<HoldChart *>();
        QVERIFY(chart);
        QVERIFY(wholeOnScreen(chart));
        QVERIFY2(chart->height() >= chart->minimumHeight(), qPrintable(QString::number(chart->height())));
        // The detail pane's parts never squeeze over each other: no two of them share a pixel, once laid out.
        const auto overlap = [chart] {
            QList<QWidget *> parts;
            for (QWidget *w : chart->parentWidget()->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
                if (w->isVisible())
                    parts << w;
            for (int i = 0; i < parts.size(); ++i)
                for (int j = i + 1; j < parts.size(); ++j)
                    if (parts.at(i)->geometry().intersects(parts.at(j)->geometry()))
                        return QStringLiteral("%1 and %2 overlap")
                            .arg(QString::fromLatin1(parts.at(i)->metaObject()->className()),
                                QString::fromLatin1(parts.at(j)->metaObject()->className()));
            return parts.size() >= 4 ? QString() : QStringLiteral("only %1 parts").arg(parts.size());
        };
        QTRY_VERIFY2(overlap().isEmpty(), qPrintable(overlap()));

        // The name and holder columns widen to their text (up to a limit), and the TTL column stays in view.
        QTableView *view = c.window.locksPane()->view();
        QTRY_VERIFY(view->columnWidth(LockTableModel::Name) > 170); // the long name's column grew
        for (const int column : { int(LockTableModel::Name), int(LockTableModel::Holders) }) {
            const int needed = static_cast<const QAbstractItemView *>(view)->sizeHintForColumn(column);
            QVERIFY2(view->columnWidth(column) >= qMin(needed, 140),
                qPrintable(QStringLiteral("column %1 is %2 px, its content %3")
                               .arg(column)
                               .arg(view->columnWidth(column))
                               .arg(needed)));
        }
        const int ttlRight = view->columnViewportPosition(LockTableModel::Ttl) + view->columnWidth(LockTableModel::Ttl);
        QVERIFY2(ttlRight <= view->viewport()->width(),
            qPrintable(QStringLiteral("TTL column ends at %1 of %2").arg(ttlRight).arg(view->viewport()->width())));

        // Rows as the demo's (a ShedLock job, a python-redis-lock worker, a read-write lock with its writer): once the
        // columns have fitted them, every column is in view without a horizontal scroll, Waiters, Age and at least
        // the header's width of Warnings included (issue 47).
        raw.command({ "SET", "job-lock:default:" + uniqueKey("fit-nightly-report"),
            "ADDED:2026-11-29T01:25:00.000Z@demo-scheduler-1", "PX", "600000" });
        raw.command({ "SET", "lock:" + uniqueKey("fit-invoices"), "GTzZtf+3qwxuYZGRQIG6bq", "PX", "600000" });
        const QByteArray rw = uniqueKey("fit-report");
        raw.command({ "HSET", rw, "mode", "write", "ee28093d-931b-45d3-bcdb-600edbf63912:405:write", "1" });
        raw.command({ "PEXPIRE", rw, "600000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(rw) >= 0, 10000);
        c.window.locksPane()->fitColumns();
        QCoreApplication::processEvents();
        QTRY_COMPARE(view->horizontalScrollBar()->maximum(), 0);
        // One client's footprint chosen (a whole UUID with its count): the name filter keeps its room.
        const int filterBefore = c.window.locksPane()->filterEdit()->width();
        c.window.locksPane()->showClient(QStringLiteral("6e3d30b7-83b1-433a-9335-5e8b9916d3ac"));
        // Laid out again as a person would see it next (the layout's request is posted, not run at once).
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        c.window.locksPane()->layout()->activate();
        QVERIFY2(c.window.locksPane()->filterEdit()->width() >= filterBefore * 9 / 10,
            qPrintable(
                QStringLiteral("%1 px, %2 before").arg(c.window.locksPane()->filterEdit()->width()).arg(filterBefore)));
        c.window.locksPane()->showClient(QString());

        // A message longer than the status bar: cut after a whole word, with an ellipsis, the whole of it in the
        // tooltip (issue 47: it was clipped mid-word).
        const QString longText = QStringLiteral("Release of orders:customer-4711:invoice-2026-11-29 failed: ")
            + QStringLiteral("the connection to the server was reset while the script ran; ").repeated(4)
            + QStringLiteral("nothing else was changed");
        c.window.showMessage(longText, true);
        const QString shown = c.window.statusBar()->currentMessage();
        QVERIFY2(shown.endsWith(QStringLiteral("…")), qPrintable(shown));
        const QString kept = shown.chopped(1);
        const QString whole = QStringLiteral("⚠ ") + longText;
        QVERIFY2(whole.startsWith(kept) && whole.at(kept.size()) == QLatin1Char(' '), qPrintable(shown));
        QCOMPARE(c.window.statusBar()->toolTip(), whole);
        QCOMPARE(c.window.statusMessage(), whole);
        const int warningsLeft = view->columnViewportPosition(LockTableModel::Warnings);
        const int headerWidth = view->horizontalHeader()->sectionSizeHint(LockTableModel::Warnings);
        QStringList widths;
        for (int column = 0; column < LockTableModel::ColumnCount; ++column)
            widths << QString::number(view->columnWidth(column));
        QVERIFY2(warningsLeft + qMin(headerWidth, 60) <= view->viewport()->width(),
            qPrintable(QStringLiteral("Warnings starts at %1 of %2 (columns %3)")
                           .arg(warningsLeft)
                           .arg(view->viewport()->width())
                           .arg(widths.join(QLatin1Char(' ')))));
    }
};

// One 1280x800 screen: the offscreen platform reads its screens from a file named on the platform's argument.
int main(int argc, char **argv)
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly))
        return 1;
    file.write(R"({ "screens": [ { "name": "laptop", "x": 0, "y": 0, "width": 1280, "height": 800,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1 } ] })");
    file.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toUtf8());
    QApplication app(argc, argv);
    TestConsoleFit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_consolefit.moc"
