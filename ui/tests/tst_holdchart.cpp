// The per-lock holder timeline: its window fits the holds it has, and zooms from seconds to hours.
#include "holdchart.h"

#include <QDateTime>
#include <QTest>
#include <QWheelEvent>

using namespace LockScope;

namespace {
LockEvent ev(LockEvent::Type type, const QByteArray &owner, qint64 at)
{
    LockEvent e;
    e.type = type;
    e.owner = owner;
    e.timeMs = at;
    return e;
}
} // namespace

class TestHoldChart : public QObject
{
    Q_OBJECT
private slots:
    void fitsTheDataItHas()
    {
        const qint64 now = 1'700'000'000'000;
        QCOMPARE(HoldChart::fitWindowMs({}, now), 10'000); // nothing yet: the smallest window
        QCOMPARE(HoldChart::fitWindowMs({ { now - 5'000, now - 4'000 } }, now), 10'000);
        QCOMPARE(HoldChart::fitWindowMs({ { now - 20'000, -1 } }, now), 30'000);
        // Holds from two hours ago are not squeezed into a five-minute window, nor lost off its edge.
        QCOMPARE(HoldChart::fitWindowMs({ { now - 2 * 3'600'000, now - 3'000'000 }, { now - 1000, -1 } }, now),
            3 * 3'600'000);
        QCOMPARE(HoldChart::fitWindowMs({ { now - 10LL * 24 * 3'600'000, now } }, now), 24 * 3'600'000);
    }

    // The legend names each lane's owner readably: the ellipsis is one character, never its UTF-8 bytes read as
    // Latin-1 ("â€¦"), and a binary token is escaped.
    void legendNamesOwnersReadably()
    {
        const QString label = HoldChart::ownerLabel("6e3d30b7-83b1-433a-9335-5e8b9916d3ac:57");
        QCOMPARE(label, QStringLiteral("6e3d30b7\u2026:57"));
        QCOMPARE(HoldChart::ownerLabel(QByteArray("tok\x00\xff", 5)), QStringLiteral("tok\\x00\\xff"));
        QCOMPARE(HoldChart::ownerLabel("short-token"), QStringLiteral("short-token"));

        // Painted with a legend beside the bars: the lane's colour shows left of where the bars begin.
        HoldChart chart;
        chart.resize(400, 110);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        chart.setTimeline({ ev(LockEvent::Type::Acquired, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:57", now - 1000) },
            { "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:57" });
        const QImage image = chart.grab().toImage();
        const QColor lane = HoldChart::laneColour(0);
        bool swatch = false;
        for (int x = 0; x < 30 && !swatch; ++x)
            for (int y = 0; y < image.height() && !swatch; ++y)
                swatch = image.pixel(x, y) == lane.rgb();
        QVERIFY2(swatch, "no legend swatch at the left edge");

        // Lanes side by side never share a look: hues at least 30 degrees apart among any eight (issue 47).
        for (int a = 0; a < 8; ++a)
            for (int b = a + 1; b < 8; ++b) {
                const int d = qAbs(HoldChart::laneColour(a).hsvHue() - HoldChart::laneColour(b).hsvHue());
                QVERIFY2(qMin(d, 360 - d) >= 30, qPrintable(QStringLiteral("lanes %1 and %2").arg(a).arg(b)));
            }
    }

    void zoomsThroughSteps()
    {
        HoldChart chart;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        chart.setTimeline({ ev(LockEvent::Type::Acquired, "a:1", now - 40 * 60'000),
                              ev(LockEvent::Type::Released, "a:1", now - 39 * 60'000) },
            {});
        QVERIFY(chart.isFitted());
        QCOMPARE(chart.windowMs(now), 3'600'000); // 44 min of data: the hour
        chart.zoomIn(now);
        QCOMPARE(chart.windowMs(now), 15 * 60'000);
        QVERIFY(!chart.isFitted());
        chart.zoomIn(now);
        chart.zoomIn(now);
        chart.zoomIn(now);
        chart.zoomIn(now);
        chart.zoomIn(now);
        QCOMPARE(chart.windowMs(now), 10'000); // no further in than seconds
        for (int i = 0; i < 20; ++i)
            chart.zoomOut(now);
        QCOMPARE(chart.windowMs(now), 24 * 3'600'000);

        // The wheel alone is the pane's, to scroll by (issue 47): the chart leaves it; Ctrl+wheel zooms. A
        // double-click fits again.
        chart.resize(400, 120);
        QWheelEvent scroll(QPointF(100, 50), QPointF(100, 50), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(&chart, &scroll);
        QVERIFY(!scroll.isAccepted());
        QCOMPARE(chart.windowMs(now), 24 * 3'600'000);
        QWheelEvent in(QPointF(100, 50), QPointF(100, 50), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(&chart, &in);
        QCOMPARE(chart.windowMs(now), 12 * 3'600'000);
        QTest::mouseDClick(&chart, Qt::LeftButton);
        QVERIFY(chart.isFitted());
        QCOMPARE(chart.windowMs(now), 3'600'000);
        QCOMPARE(HoldChart::durationText(30'000), QStringLiteral("30 s"));
        QCOMPARE(HoldChart::durationText(15 * 60'000), QStringLiteral("15 min"));
        QCOMPARE(HoldChart::durationText(3 * 3'600'000), QStringLiteral("3 h"));
    }
};

QTEST_MAIN(TestHoldChart)
#include "tst_holdchart.moc"
