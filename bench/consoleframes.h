#pragma once

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <vector>

class QAbstractItemView;
class QEventLoop;
class QWidget;

namespace LockScope::Bench {

// The measuring side of bench_console, shared by the console and the plain-table baseline so that both go
// through the very same procedure.

// Tells when a paint is over. A Paint event only says one is starting; a call queued from inside it runs once
// the whole repaint (every dirty widget, then the flush of the backing store to the screen) has returned to the
// event loop, which is when the user sees it.
class PaintWatch : public QObject
{
public:
    // wholeWindow: a paint of any widget of target's window counts (an application-wide filter while armed);
    // otherwise only target's own paints.
    PaintWatch(QWidget *target, bool wholeWindow);
    ~PaintWatch() override;

    // The next paint that starts from now on is the one done() and doneNs() report.
    void arm();
    bool done() const { return m_doneNs != 0; }
    qint64 doneNs() const { return m_doneNs; }
    int paints() const { return m_paints; } // every paint of target seen so far (counted with wholeWindow false)
    // Called once the armed paint is over (to quit a waiting event loop).
    std::function<void()> onDone;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_target;
    bool m_wholeWindow;
    bool m_armed = false;
    bool m_filtering = false;
    qint64 m_doneNs = 0;
    int m_paints = 0;
};

// One frame as the user scrolls: the vertical scroll bar jumps to a random position, then the viewport is
// repainted synchronously (repaint(), flush included). The first few frames are not counted: glyph caches and
// the like fill once. Between frames the event loop runs, outside the timed part, as it would between frames.
std::vector<double> scrollFrames(QAbstractItemView *view, int frames, quint32 seed);

struct FilterFrame
{
    QString glob;
    int rows = 0; // rows the view shows after it
    double ms = 0; // the keystroke's own frame: the filter set, the items laid out, the viewport painted
    double maxBlockMs = 0; // the longest the event loop was held from then until the filtered rows were on screen
    double maxBlockCpuMs = 0; // the same turns' main-thread CPU: the block less the time the thread waited for a CPU
    double appliedMs = 0; // from the keystroke until the filtered rows were on screen
};
// The globs typed into the name filter, in this order, each frame from a different glob than the one before.
QStringList filterGlobs();
// One frame per glob and round: the filter changes (setFilter), the view lays its items out at once (which Qt
// would otherwise do from a zero timer, before the next paint anyway), and the viewport repaints synchronously.
// pending: whether the filter is still being matched (the console's matches a slice at a time); the event loop runs
// one turn at a time until it is not, each turn timed, then the view is laid out and painted again.
QList<FilterFrame> filterFrames(QAbstractItemView *view, const std::function<void(const QString &)> &setFilter,
    const std::function<bool()> &pending, int rounds);

struct SortFrame
{
    int column = 0;
    Qt::SortOrder order = Qt::AscendingOrder; // as the header indicates after the click
    double ms = 0; // the click's own frame: the header clicked, the items laid out, the viewport painted
    double maxBlockMs = 0; // the longest the event loop was held from then until the sorted rows were on screen
    double maxBlockCpuMs = 0; // the same turns' main-thread CPU
    double appliedMs = 0; // from the click until the sorted rows were on screen
};
// The header sections clicked, in this order: the TTL twice (ascending, then descending), a text column, the name.
QList<int> sortClicks();
// One frame per click on a header section, as a person's mouse does it (a press and a release on the section):
// the view sorts (QTableView::sortByColumn, the model's sort()), lays its items out and repaints synchronously.
// pending: whether the new order is still being worked out (the console's sorts a slice at a time); the event loop
// runs one turn at a time until it is not, each turn timed, then the view is laid out and painted again.
QList<SortFrame> sortFrames(QAbstractItemView *view, const std::function<bool()> &pending);

struct IdleRun
{
    double cpuPercent = 0; // process CPU (user + system) over the wall time, in percent of one core
    double paintsPerS = 0; // paints of the watched viewport: the countdown must actually be drawn
    QList<double> perSecondPercent; // the same, second by second: a background re-scan shows as a spike
};
// Leaves the application alone for `seconds` with its own timers running, the event loop waiting in between.
IdleRun idleCpu(QEventLoop &loop, QWidget *viewport, double seconds);
// User + system CPU time of this process so far, in ns.
qint64 processCpuNs();

// The baseline's rows: the console's ten columns with text of about the same length, made on the fly from the
// row number, so the model itself costs next to nothing and the table's own cost is what remains.
class PlainLockModel : public QAbstractTableModel
{
public:
    explicit PlainLockModel(int rows, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int m_rows;
    QElapsedTimer m_clock; // the TTL and age columns change with time, as the console's do
};

} // namespace LockScope::Bench
