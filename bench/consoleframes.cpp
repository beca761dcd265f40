#include "consoleframes.h"

#include "benchcommon.h"
#include "monitorprobe.h"

#include <QAbstractItemView>
#include <QCoreApplication>
#include <QEvent>
#include <QEventLoop>
#include <QHeaderView>
#include <QMouseEvent>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <QWidget>

#include <ctime>
#include <sys/resource.h>

namespace LockScope::Bench {

namespace {
constexpr int kWarmUpFrames = 5;
} // namespace

PaintWatch::PaintWatch(QWidget *target, bool wholeWindow)
    : m_target(target)
    , m_wholeWindow(wholeWindow)
{
    if (!m_wholeWindow)
        m_target->installEventFilter(this);
}

PaintWatch::~PaintWatch()
{
    if (m_filtering)
        qApp->removeEventFilter(this);
}

void PaintWatch::arm()
{
    m_armed = true;
    m_doneNs = 0;
    // Application-wide filters see every event of every object: only while waiting for the one paint.
    if (m_wholeWindow && !m_filtering) {
        qApp->installEventFilter(this);
        m_filtering = true;
    }
}

bool PaintWatch::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::Paint)
        return false;
    bool ours = watched == m_target;
    if (m_wholeWindow)
        ours = watched->isWidgetType() && static_cast<QWidget *>(watched)->window() == m_target->window();
    else if (ours)
        ++m_paints;
    if (ours && m_armed) {
        m_armed = false;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_doneNs = nowNs();
                if (m_filtering) {
                    qApp->removeEventFilter(this);
                    m_filtering = false;
                }
                if (onDone)
                    onDone();
            },
            Qt::QueuedConnection);
    }
    return false;
}

std::vector<double> scrollFrames(QAbstractItemView *view, int frames, quint32 seed)
{
    QScrollBar *bar = view->verticalScrollBar();
    QRandomGenerator random(seed);
    std::vector<double> out;
    for (int i = 0; i < kWarmUpFrames + frames; ++i) {
        const int to = int(random.bounded(quint32(bar->maximum()) + 1));
        const qint64 start = nowNs();
        bar->setValue(to);
        view->viewport()->repaint();
        const double took = ms(nowNs() - start);
        if (i >= kWarmUpFrames)
            out.push_back(took);
        QCoreApplication::processEvents();
    }
    return out;
}

namespace {
struct Applied
{
    double frameMs = 0;
    double maxBlockMs = 0;
    double maxBlockCpuMs = 0;
    double appliedMs = 0;
};

// What a person's action costs the window: its own frame (the action, the items laid out, the viewport painted at
// once, which Qt would otherwise do from a zero timer before the next paint anyway), then, while pending() says its
// result is still being worked out, each turn of the event loop, and the frame that shows the result.
Applied untilApplied(QAbstractItemView *view, const std::function<void()> &act, const std::function<bool()> &pending)
{
    Applied applied;
    const auto block = [&applied](qint64 wall, qint64 cpu) {
        applied.maxBlockMs = qMax(applied.maxBlockMs, ms(nowNs() - wall));
        applied.maxBlockCpuMs = qMax(applied.maxBlockCpuMs, ms(threadCpuNs() - cpu));
    };
    const qint64 start = nowNs();
    const qint64 startCpu = threadCpuNs();
    act();
    view->doItemsLayout();
    view->viewport()->repaint();
    applied.frameMs = ms(nowNs() - start);
    block(start, startCpu);
    if (pending()) {
        while (pending()) {
            const qint64 turn = nowNs();
            const qint64 turnCpu = threadCpuNs();
            QCoreApplication::processEvents(QEventLoop::AllEvents);
            block(turn, turnCpu);
        }
        const qint64 paint = nowNs();
        const qint64 paintCpu = threadCpuNs();
        view->doItemsLayout();
        view->viewport()->repaint();
        block(paint, paintCpu);
    }
    applied.appliedMs = ms(nowNs() - start);
    return applied;
}
} // namespace

QStringList filterGlobs()
{
    // From every row: to a ninth of them in one run of the sorted table, to ten, back to all of them, to four in
    // ten scattered over the table (tens of thousands of runs to remove), and back: narrowing and widening, few runs
    // and many, each from where the previous glob left the table.
    return { QStringLiteral("bench:lock:1*"), QStringLiteral("*:4?"), QString(), QStringLiteral("*7*"), QString() };
}

QList<FilterFrame> filterFrames(QAbstractItemView *view, const std::function<void(const QString &)> &setFilter,
    const std::function<bool()> &pending, int rounds)
{
    QList<FilterFrame> out;
    for (int round = 0; round < rounds; ++round) {
        for (const QString &glob : filterGlobs()) {
            FilterFrame frame;
            const Applied applied = untilApplied(
                view, [&] { setFilter(glob); }, pending);
            frame.ms = applied.frameMs;
            frame.maxBlockMs = applied.maxBlockMs;
            frame.maxBlockCpuMs = applied.maxBlockCpuMs;
            frame.appliedMs = applied.appliedMs;
            frame.glob = glob;
            frame.rows = view->model()->rowCount();
            out << frame;
            QCoreApplication::processEvents();
        }
    }
    return out;
}

QList<int> sortClicks()
{
    // Numbers (TTL), the other way, text (kind: a few values, ties by the million), the name: the columns' three
    // kinds of key.
    return { 5, 5, 1, 0 };
}

namespace {
void clickSection(QHeaderView *header, int section)
{
    const QPointF at(
        header->sectionViewportPosition(section) + header->sectionSize(section) / 2.0, header->height() / 2.0);
    const QPointF global = header->viewport()->mapToGlobal(at);
    QMouseEvent press(QEvent::MouseButtonPress, at, global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(header->viewport(), &press);
    QMouseEvent release(QEvent::MouseButtonRelease, at, global, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(header->viewport(), &release);
}
} // namespace

QList<SortFrame> sortFrames(QAbstractItemView *view, const std::function<bool()> &pending)
{
    QHeaderView *header = static_cast<QTableView *>(view)->horizontalHeader();
    QList<SortFrame> out;
    for (const int column : sortClicks()) {
        SortFrame frame;
        const Applied applied = untilApplied(
            view, [&] { clickSection(header, column); }, pending);
        frame.ms = applied.frameMs;
        frame.maxBlockMs = applied.maxBlockMs;
        frame.maxBlockCpuMs = applied.maxBlockCpuMs;
        frame.appliedMs = applied.appliedMs;
        frame.column = header->sortIndicatorSection();
        frame.order = header->sortIndicatorOrder();
        out << frame;
        QCoreApplication::processEvents();
    }
    return out;
}

qint64 processCpuNs()
{
    rusage usage = {};
    getrusage(RUSAGE_SELF, &usage);
    const auto ns = [](const timeval &t) { return qint64(t.tv_sec) * 1000000000 + qint64(t.tv_usec) * 1000; };
    return ns(usage.ru_utime) + ns(usage.ru_stime);
}

IdleRun idleCpu(QEventLoop &loop, QWidget *viewport, double seconds)
{
    IdleRun run;
    PaintWatch counter(viewport, false);
    QTimer sampler;
    qint64 lastCpu = processCpuNs();
    qint64 lastWall = nowNs();
    QObject::connect(&sampler, &QTimer::timeout, [&] {
        const qint64 cpu = processCpuNs();
        const qint64 wall = nowNs();
        run.perSecondPercent << 100.0 * double(cpu - lastCpu) / double(wall - lastWall);
        lastCpu = cpu;
        lastWall = wall;
    });
    const qint64 cpuStart = lastCpu;
    const qint64 wallStart = lastWall;
    sampler.start(1000);
    idle(loop, int(seconds * 1000));
    const qint64 wall = nowNs() - wallStart;
    run.cpuPercent = 100.0 * double(processCpuNs() - cpuStart) / double(wall);
    run.paintsPerS = double(counter.paints()) / (double(wall) / 1e9);
    return run;
}

PlainLockModel::PlainLockModel(int rows, QObject *parent)
    : QAbstractTableModel(parent)
    , m_rows(rows)
{
    m_clock.start();
}

int PlainLockModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int PlainLockModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 10;
}

QVariant PlainLockModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const int row = index.row();
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == 4 || column == 5 || column == 7 || column == 8
            ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
            : QVariant();
    if (role != Qt::DisplayRole)
        return {};
    // The console's seeding: kind by row % 10, holders from a handful of client ids, 600 s leases.
    const qint64 elapsedMs = m_clock.elapsed();
    switch (column) {
    case 0:
        return QStringLiteral("bench:lock:%1").arg(row);
    case 1: {
        static const QString kinds[] = { QStringLiteral("reentrant"), QStringLiteral("fenced"), QStringLiteral("fair"),
            QStringLiteral("read-write") };
        const int slot = row % 10;
        return kinds[slot < 7 ? 0 : slot - 6];
    }
    case 2:
        return row % 10 == 9 ? QStringLiteral("read") : QString();
    case 3:
        return QStringLiteral("6e3d30b7…:%1").arg(1 + row % 211);
    case 4:
        return 1;
    case 5: {
        const qint64 left = qMax<qint64>(0, 600000 - elapsedMs);
        return QStringLiteral("%1 min %2 s").arg(left / 60000).arg((left / 1000) % 60);
    }
    case 6:
        return QStringLiteral("no");
    case 7:
        return row % 10 == 8 ? QStringLiteral("1") : QStringLiteral("0");
    case 8:
        return QStringLiteral("%1 s").arg(double(elapsedMs) / 1000.0, 0, 'f', 1);
    default:
        return QString();
    }
}

QVariant PlainLockModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const names[]
        = { "Name", "Kind", "Mode", "Holders", "Count", "TTL", "Watchdog", "Waiters", "Age", "Warnings" };
    return section >= 0 && section < 10 ? QString::fromLatin1(names[section]) : QString();
}

} // namespace LockScope::Bench
