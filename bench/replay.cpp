// The console's replay of a big recording, as a person uses it: File › Open recording… on ten million events, the
// time slider dragged across the day (each move a new moment, 60 a second as a mouse moves it), then jumps anywhere
// and a minute played at 60×. What a person sees is the event loop's turns: every turn of the window's thread is
// timed (the moment asked for, a frame applied to the table, the repaint), and a turn over 50 ms is a frame the
// person waits for. The same-run baseline is a plain table of as many rows refreshed as often in the same window
// size, with nothing behind it: what any table of that size costs. The time from the drag's last move to its moment
// on screen (the engine rebuilding it on its own thread) is reported too.
#include "benchcommon.h"
#include "recordingseed.h"
#include "replaywindow.h"

#include "replay/replayengine.h"
#include "replay/replaytablemodel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QRandomGenerator>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <vector>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {
constexpr int kWidth = 1280;
constexpr int kHeight = 820;
constexpr int kMoveMs = 16; // a mouse drag's moves, 60 a second
constexpr double kLongFrameMs = 50;

// Times every turn of the GUI thread's event loop (one event delivered, whatever it sets off, repaints included).
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_depth > 0 || QThread::currentThread() != thread() || !m_measuring)
            return nested(receiver, event);
        QElapsedTimer clock;
        clock.start();
        const bool done = nested(receiver, event);
        m_turns.push_back(double(clock.nsecsElapsed()) / 1e6);
        return done;
    }
    void measure(bool on)
    {
        m_measuring = on;
        if (on)
            m_turns.clear();
    }
    std::vector<double> turns() const { return m_turns; }

private:
    bool nested(QObject *receiver, QEvent *event)
    {
        ++m_depth;
        const bool done = QApplication::notify(receiver, event);
        --m_depth;
        return done;
    }
    int m_depth = 0;
    bool m_measuring = false;
    std::vector<double> m_turns;
};

struct Turns
{
    double maxMs = 0;
    double p99Ms = 0;
    qint64 over50 = 0;
    qint64 count = 0;
};

Turns summarise(std::vector<double> turns)
{
    Turns t;
    if (turns.empty())
        return t;
    std::sort(turns.begin(), turns.end());
    t.count = qint64(turns.size());
    t.maxMs = turns.back();
    t.p99Ms = turns.at(std::min(turns.size() - 1, size_t(double(turns.size()) * 0.99)));
    t.over50 = std::count_if(turns.cbegin(), turns.cend(), [](double ms) { return ms > kLongFrameMs; });
    return t;
}

// The baseline's rows: as many as the replay's table, seven columns of text of about the same length, made from the
// row number and a generation that each refresh moves on, so the model itself costs next to nothing.
class PlainModel : public QAbstractTableModel
{
public:
    explicit PlainModel(int rows)
        : m_rows(rows)
    { }
    int rowCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : m_rows; }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 7; }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role != Qt::DisplayRole)
            return {};
        switch (index.column()) {
        case 0:
            return QStringLiteral("bench:rec:orders:%1").arg(index.row());
        case 3:
            return QStringLiteral("6e3d30b7-83b1-433a-9335-1000000000%1:%2").arg(index.row() % 7).arg(index.row() % 97);
        case 5:
            return QStringLiteral("%1 s").arg((30000 - (m_generation * 37 + index.row()) % 30000) / 1000.0, 0, 'f', 1);
        default:
            return QStringLiteral("reentrant");
        }
    }
    void refresh()
    {
        ++m_generation;
        emit dataChanged(index(0, 0), index(m_rows - 1, 6));
    }

private:
    int m_rows;
    int m_generation = 0;
};

// The event loop runs for ms, as it does between a mouse's moves.
void runFor(int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms)
        QCoreApplication::processEvents(
            QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, ms - int(clock.elapsed()));
}

void runUntil(const std::function<bool()> &done, int timeoutMs, const char *what)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            fatal(QStringLiteral("timed out waiting for %1").arg(QLatin1String(what)));
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    }
}
} // namespace

int main(int argc, char **argv)
{
    TimedApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_replay"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The console's replay slider on a big recording, against a plain "
                                                    "table refreshed as often."));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("events"), QStringLiteral("events in the recording"), QStringLiteral("N"),
        QStringLiteral("10000000") });
    parser.addOption(
        { QStringLiteral("locks"), QStringLiteral("distinct locks"), QStringLiteral("N"), QStringLiteral("10000") });
    parser.addOption({ QStringLiteral("moves"), QStringLiteral("slider moves of the drag across the day"),
        QStringLiteral("N"), QStringLiteral("300") });
    parser.addOption({ QStringLiteral("jumps"), QStringLiteral("clicks anywhere on the slider"), QStringLiteral("N"),
        QStringLiteral("30") });
    parser.addOption({ QStringLiteral("play-seconds"), QStringLiteral("seconds played at 60x"), QStringLiteral("S"),
        QStringLiteral("5") });
    parser.process(app);
    const qint64 events = parser.value(QStringLiteral("events")).toLongLong();
    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int moves = parser.value(QStringLiteral("moves")).toInt();
    const int jumps = parser.value(QStringLiteral("jumps")).toInt();
    const double playSeconds = parser.value(QStringLiteral("play-seconds")).toDouble();

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.sqlite"));
    QByteArray owner;
    QElapsedTimer seedClock;
    seedClock.start();
    seedBig(path, events, locks, &owner);
    report(QStringLiteral("seeded %1 events in %2 s").arg(events).arg(seedClock.elapsed() / 1000.0, 0, 'f', 1));

    ReplayWindow window(path);
    window.resize(kWidth, kHeight);
    window.show();
    runUntil([&] { return window.isLoaded(); }, 600000, "the recording to open");
    if (!window.info().error.isEmpty())
        fatal(window.info().error);
    runUntil([&] { return window.shownMs() >= 0 && !window.engine()->busy(); }, 600000, "the first frame");
    QSlider *slider = window.slider();
    int framesShown = 0;
    QObject::connect(&window, &ReplayWindow::frameShown, &window, [&] { ++framesShown; });

    // A: the drag across the day, then where it ends on screen.
    app.measure(true);
    framesShown = 0;
    slider->setSliderDown(true);
    QElapsedTimer dragClock;
    dragClock.start();
    for (int i = 0; i <= moves; ++i) {
        slider->setSliderPosition(int(qint64(slider->maximum()) * i / qMax(1, moves)));
        runFor(kMoveMs);
    }
    slider->setSliderDown(false);
    QElapsedTimer settle;
    settle.start();
    runUntil([&] { return !window.engine()->busy(); }, 600000, "the drag's last moment");
    const double settleMs = double(settle.nsecsElapsed()) / 1e6;
    const int dragFrames = framesShown;
    const double dragS = double(dragClock.elapsed()) / 1000.0;
    const Turns drag = summarise(app.turns());
    const int rowsAtEnd = window.locksModel()->rowCount();

    // B: clicks anywhere (each a rebuild from the snapshot before the moment), each waited for.
    app.measure(true);
    QRandomGenerator random(20261129);
    QList<double> jumpMs;
    for (int i = 0; i < jumps; ++i) {
        QElapsedTimer clock;
        clock.start();
        slider->setValue(int(random.bounded(slider->maximum() + 1)));
        runUntil([&] { return !window.engine()->busy(); }, 600000, "a jump");
        jumpMs << double(clock.nsecsElapsed()) / 1e6;
    }
    const Turns jump = summarise(app.turns());
    std::sort(jumpMs.begin(), jumpMs.end());

    // C: played at 60× from the middle.
    window.seekTo(window.info().firstMs + (window.info().lastMs - window.info().firstMs) / 2);
    runUntil([&] { return !window.engine()->busy(); }, 600000, "the middle");
    app.measure(true);
    framesShown = 0;
    window.speedBox()->setCurrentIndex(window.speedBox()->count() - 1);
    window.playAction()->setChecked(true);
    runFor(int(playSeconds * 1000));
    window.playAction()->setChecked(false);
    const Turns play = summarise(app.turns());
    const int playFrames = framesShown;
    window.hide();

    // Baseline: a plain table of as many rows, sorted by a proxy, refreshed every move in the same window size.
    QTableView plain;
    PlainModel model(qMax(1, rowsAtEnd));
    QSortFilterProxyModel sorted;
    sorted.setSourceModel(&model);
    plain.setModel(&sorted);
    plain.setSortingEnabled(true);
    plain.sortByColumn(0, Qt::AscendingOrder);
    plain.resize(kWidth, kHeight);
    plain.show();
    runFor(500);
    app.measure(true);
    for (int i = 0; i <= moves; ++i) {
        model.refresh();
        runFor(kMoveMs);
    }
    const Turns baseline = summarise(app.turns());
    app.measure(false);

    report(QStringLiteral("drag over %1 events: %2 moves in %3 s, %4 frames shown; event-loop turns max %5 ms, p99 %6 "
                          "ms, %7 over 50 ms; last moment on screen %8 ms after the drag")
               .arg(events)
               .arg(moves)
               .arg(dragS, 0, 'f', 1)
               .arg(dragFrames)
               .arg(drag.maxMs, 0, 'f', 1)
               .arg(drag.p99Ms, 0, 'f', 1)
               .arg(drag.over50)
               .arg(settleMs, 0, 'f', 0));
    report(QStringLiteral("%1 jumps: median %2 ms to the moment on screen, max turn %3 ms; play at 60x: %4 frames, max "
                          "turn %5 ms; plain table of %6 rows: max turn %7 ms, p99 %8 ms")
               .arg(jumps)
               .arg(jumpMs.isEmpty() ? 0.0 : jumpMs.at(jumpMs.size() / 2), 0, 'f', 0)
               .arg(jump.maxMs, 0, 'f', 1)
               .arg(playFrames)
               .arg(play.maxMs, 0, 'f', 1)
               .arg(rowsAtEnd)
               .arg(baseline.maxMs, 0, 'f', 1)
               .arg(baseline.p99Ms, 0, 'f', 1));
    printJsonLine(JsonLine()
                      .add(QStringLiteral("bench"), "replay")
                      .add(QStringLiteral("events"), events)
                      .add(QStringLiteral("locks"), locks)
                      .add(QStringLiteral("rows"), rowsAtEnd)
                      .add(QStringLiteral("drag_moves"), moves)
                      .add(QStringLiteral("drag_frames_shown"), dragFrames)
                      .add(QStringLiteral("drag_max_turn_ms"), drag.maxMs)
                      .add(QStringLiteral("drag_p99_turn_ms"), drag.p99Ms)
                      .add(QStringLiteral("drag_turns_over_50ms"), drag.over50)
                      .add(QStringLiteral("drag_settle_ms"), settleMs)
                      .add(QStringLiteral("jumps"), jumps)
                      .add(QStringLiteral("jump_median_ms"), jumpMs.isEmpty() ? 0.0 : jumpMs.at(jumpMs.size() / 2))
                      .add(QStringLiteral("jump_max_turn_ms"), jump.maxMs)
                      .add(QStringLiteral("jump_turns_over_50ms"), jump.over50)
                      .add(QStringLiteral("play_frames"), playFrames)
                      .add(QStringLiteral("play_max_turn_ms"), play.maxMs)
                      .add(QStringLiteral("play_turns_over_50ms"), play.over50)
                      .add(QStringLiteral("baseline"),
                          JsonLine()
                              .add(QStringLiteral("plain_table_max_turn_ms"), baseline.maxMs)
                              .add(QStringLiteral("plain_table_p99_turn_ms"), baseline.p99Ms))
                      .add(QStringLiteral("ratio"),
                          JsonLine()
                              .add(QStringLiteral("drag_max_turn_vs_plain_table"), drag.maxMs / baseline.maxMs)
                              .add(QStringLiteral("drag_p99_turn_vs_plain_table"), drag.p99Ms / baseline.p99Ms)));
    return 0;
}
