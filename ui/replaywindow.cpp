#include "replaywindow.h"

#include "holdchart.h"
#include "models/contentionviews.h"
#include "monitor/lockrecord.h"
#include "recording/recordingstore.h"
#include "redis/bytesformat.h"
#include "replay/replayengine.h"
#include "replay/replaytablemodel.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProxyStyle>
#include <QSignalBlocker>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace LockScope {

namespace {
constexpr int kPlayTickMs = 100;
constexpr int kSliderSteps = 1000000;
constexpr int kContentionPage = 2;
constexpr qint64 kContentionWindowMs = 3600 * 1000;

// A click anywhere on the slider's groove goes to that moment ("who held it at 03:12" is one click), rather than a
// page towards it.
class JumpingSliderStyle : public QProxyStyle
{
public:
    int styleHint(
        StyleHint hint, const QStyleOption *option, const QWidget *widget, QStyleHintReturn *returnData) const override
    {
        if (hint == QStyle::SH_Slider_AbsoluteSetButtons)
            return int(Qt::LeftButton);
        return QProxyStyle::styleHint(hint, option, widget, returnData);
    }
};

// A history's events after the moment shown are greyed: where the slider stands in it shows at a glance.
class MomentDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(ReplayEventsModel::AfterMomentRole).toBool())
            option->palette.setColor(QPalette::Text, option->palette.color(QPalette::Disabled, QPalette::Text));
    }
};

QTableView *eventTable(ReplayEventsModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setItemDelegate(new MomentDelegate(view));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}

QString momentText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}
} // namespace

ReplayWindow::ReplayWindow(const QString &path, QWidget *parent)
    : QMainWindow(parent)
    , m_engine(new ReplayEngine(this))
    , m_locks(new ReplayTableModel(this))
    , m_history(new ReplayEventsModel(this))
    , m_events(new ReplayEventsModel(this))
    , m_hot(ContentionViews::makeHotModel(this))
    , m_hotSorted(new QSortFilterProxyModel(this))
    , m_playTimer(new QTimer(this))
{
    // A shared recording's URL is shown without its password.
    const QString shown = RecordingStore::shownPath(path);
    setWindowTitle(tr("Replay of %1 — LockScope").arg(shown == path ? QFileInfo(path).fileName() : shown));
    m_info.path = path;

    auto *bar = addToolBar(tr("Replay"));
    bar->setObjectName(QStringLiteral("replayToolBar"));
    bar->setMovable(false);
    m_server = new QComboBox(this);
    m_server->setToolTip(tr("The server whose locks are shown"));
    m_server->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(m_server);
    m_moment = new QLineEdit(this);
    m_moment->setMinimumWidth(m_moment->fontMetrics().horizontalAdvance(QStringLiteral("8888-88-88 88:88:88.888 ")));
    m_moment->setToolTip(tr("The moment shown: type one (2026-11-26 03:12, or 03:12:05 on the day shown) and press "
                            "Return"));
    bar->addWidget(m_moment);
    m_play = bar->addAction(tr("&Play"));
    m_play->setCheckable(true);
    m_play->setShortcut(Qt::Key_Space);
    m_play->setToolTip(tr("Play the recording from the moment shown (Space)"));
    m_speed = new QComboBox(this);
    for (const int speed : { 1, 5, 10, 30, 60 })
        m_speed->addItem(tr("%1×").arg(speed), speed);
    m_speed->setToolTip(tr("How fast the recording plays"));
    bar->addWidget(m_speed);
    m_nextEvent = bar->addAction(tr("&Next event of the lock"));
    m_nextEvent->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Right));
    m_nextEvent->setToolTip(tr("Go to the selected lock's next event (Ctrl+Right)"));
    m_nextEvent->setEnabled(false);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    m_slider = new QSlider(Qt::Horizontal, central);
    auto *style = new JumpingSliderStyle;
    style->setParent(m_slider);
    m_slider->setStyle(style);
    m_slider->setEnabled(false);
    m_slider->setToolTip(tr("The recording from its first event to its last: click or drag to a moment"));
    layout->addWidget(m_slider);
    m_filter = new QLineEdit(central);
    m_filter->setPlaceholderText(tr("Filter locks by name (glob)"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);

    auto *split = new QSplitter(Qt::Vertical, central);
    m_locksView = new QTableView(split);
    m_locksView->setModel(m_locks); // it sorts and filters itself
    m_locksView->setSortingEnabled(true);
    m_locksView->sortByColumn(ReplayTableModel::Name, Qt::AscendingOrder);
    m_locksView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_locksView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_locksView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_locksView->verticalHeader()->hide();
    m_locksView->horizontalHeader()->setStretchLastSection(true);
    m_locksView->setColumnWidth(ReplayTableModel::Name, 300);
    m_locksView->setColumnWidth(ReplayTableModel::Holders, 340);
    m_locksView->setWordWrap(false);
    split->addWidget(m_locksView);

    m_pages = new QTabWidget(split);
    auto *historyPage = new QWidget(m_pages);
    auto *historyLayout = new QVBoxLayout(historyPage);
    historyLayout->setContentsMargins(0, 0, 0, 0);
    m_historyTitle = new QLabel(tr("Select a lock to see its history."), historyPage);
    m_historyTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    historyLayout->addWidget(m_historyTitle);
    m_chart = new HoldChart(historyPage);
    m_chart->setToolTip(tr("Who held the lock up to the moment shown: click a bar to see that moment"));
    historyLayout->addWidget(m_chart);
    m_historyView = eventTable(m_history, historyPage);
    m_historyView->hideColumn(ReplayEventsModel::Lock);
    historyLayout->addWidget(m_historyView);
    m_pages->addTab(historyPage, tr("&History of the lock"));
    m_eventsView = eventTable(m_events, m_pages);
    m_pages->addTab(m_eventsView, tr("&Events up to the moment"));
    auto *contentionPage = new QWidget(m_pages);
    auto *contentionLayout = new QVBoxLayout(contentionPage);
    contentionLayout->setContentsMargins(0, 0, 0, 0);
    m_contentionTitle = new QLabel(contentionPage);
    m_contentionTitle->setWordWrap(true);
    contentionLayout->addWidget(m_contentionTitle);
    m_hotSorted->setSourceModel(m_hot);
    m_hotSorted->setSortRole(KeyedTableModel::SortRole);
    m_hotView = new QTableView(contentionPage);
    m_hotView->setModel(m_hotSorted);
    m_hotView->setSortingEnabled(true);
    m_hotView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_hotView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_hotView->verticalHeader()->hide();
    m_hotView->setColumnWidth(0, 260);
    contentionLayout->addWidget(m_hotView);
    m_pages->addTab(contentionPage, tr("&Contention in the hour before"));
    split->addWidget(m_pages);
    layout->addWidget(split, 1);
    setCentralWidget(central);

    m_status = new QLabel(tr("Reading %1…").arg(shown), this);
    statusBar()->addWidget(m_status, 1);

    connect(m_engine, &ReplayEngine::opened, this, &ReplayWindow::onOpened);
    connect(m_engine, &ReplayEngine::frameReady, this, &ReplayWindow::onFrame);
    connect(m_engine, &ReplayEngine::historyReady, this, [this](const ReplayHistory &history) {
        m_historyPending = false;
        if (history.name != m_historyOf || history.server != m_engine->server())
            return; // a lock or server since left
        m_historyFromMs = history.fromMs;
        m_historyToMs = history.toMs;
        m_history->setEvents(history.events);
        m_history->setMomentMs(m_momentMs);
        m_historyTitle->setText(history.error.isEmpty()
                ? tr("History of %1: %n event(s)", nullptr, int(history.events.size())).arg(escapeBytes(history.name))
                : history.error);
        updateChart();
        if (const int row = m_history->rowAtMoment(); row >= 0)
            m_historyView->scrollTo(m_history->index(row, 0), QAbstractItemView::PositionAtCenter);
        emit historyShown();
        followHistory(); // the moment moved on meanwhile
    });
    connect(m_engine, &ReplayEngine::nextEventFound, this, [this](const QByteArray &name, qint64 at) {
        if (name != m_historyOf)
            return;
        if (at < 0)
            statusBar()->showMessage(tr("%1 has no event after this moment").arg(escapeBytes(name)), 5000);
        else
            seekTo(at);
    });
    connect(m_engine, &ReplayEngine::contentionReady, this,
        [this](qint64 timeMs, const QList<KeyedRow> &rows, const QString &error) {
            m_hot->setRows(rows);
            m_contentionShownMs = timeMs;
            m_contentionTitle->setText(error.isEmpty()
                    ? tr("The hour before %1, folded from the recording as live statistics are: the hottest locks "
                         "first. Waiters seen only by polling are not in a recording.")
                          .arg(momentText(timeMs))
                    : error);
            emit contentionShown();
        });
    connect(m_pages, &QTabWidget::currentChanged, this, [this] { askForContention(); });
    connect(m_slider, &QSlider::valueChanged, this, &ReplayWindow::onSliderMoved);
    connect(m_moment, &QLineEdit::returnPressed, this, [this] {
        const qint64 at = parseMoment(m_moment->text(), m_momentMs);
        if (at < 0) {
            statusBar()->showMessage(
                tr("%1 is not a moment: type 2026-11-26 03:12:05 or 03:12:05").arg(m_moment->text()), 5000);
            return;
        }
        seekTo(at);
    });
    connect(m_server, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0)
            return;
        m_engine->setServer(m_server->itemData(index).toByteArray());
        seekTo(m_momentMs);
        requestHistory(); // the followed lock's history on this server
    });
    connect(m_play, &QAction::toggled, this, &ReplayWindow::setPlaying);
    connect(m_playTimer, &QTimer::timeout, this, &ReplayWindow::tick);
    connect(m_nextEvent, &QAction::triggered, this, &ReplayWindow::jumpToNextEvent);
    connect(m_filter, &QLineEdit::textChanged, m_locks, &ReplayTableModel::setFilter);
    connect(
        m_locksView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ReplayWindow::onSelectionChanged);
    const auto seekToRow = [this](ReplayEventsModel *model) {
        return [this, model](const QModelIndex &index) {
            seekTo(model->data(model->index(index.row(), 0), ReplayEventsModel::TimeRole).toLongLong());
        };
    };
    connect(m_historyView, &QTableView::activated, this, seekToRow(m_history));
    connect(m_chart, &HoldChart::timeClicked, this, &ReplayWindow::seekTo);
    connect(m_eventsView, &QTableView::activated, this, seekToRow(m_events));
    m_playTimer->setInterval(kPlayTickMs);
    resize(1100, 720);
    m_engine->open(path);
}

ReplayWindow::~ReplayWindow() = default;

qint64 ReplayWindow::parseMoment(const QString &text, qint64 referenceMs)
{
    // What people type: a whole date and time (local, as the window shows them; or ISO 8601 with a zone), or a time
    // alone, on the day of the moment shown: "held by whom at 03:12".
    const QString t = text.trimmed();
    for (const char *format : { "yyyy-MM-dd HH:mm:ss.zzz", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm" }) {
        const QDateTime at = QDateTime::fromString(t, QLatin1String(format));
        if (at.isValid())
            return at.toMSecsSinceEpoch();
    }
    if (const QDateTime at = QDateTime::fromString(t, Qt::ISODateWithMs); at.isValid())
        return at.toMSecsSinceEpoch();
    for (const char *format : { "HH:mm:ss.zzz", "HH:mm:ss", "HH:mm", "H:mm" }) {
        const QTime time = QTime::fromString(t, QLatin1String(format));
        if (time.isValid() && referenceMs >= 0)
            return QDateTime(QDateTime::fromMSecsSinceEpoch(referenceMs).date(), time).toMSecsSinceEpoch();
    }
    return -1;
}

qint64 ReplayWindow::shownMs() const
{
    return m_locks->timeMs();
}

QByteArray ReplayWindow::selectedLock() const
{
    const QModelIndexList rows = m_locksView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QByteArray() : rows.first().data(ReplayTableModel::NameRole).toByteArray();
}

qint64 ReplayWindow::timeOfSlider(int value) const
{
    return m_info.firstMs + qint64(value) * m_unitMs;
}

int ReplayWindow::sliderOf(qint64 timeMs) const
{
    return int((timeMs - m_info.firstMs) / m_unitMs);
}

void ReplayWindow::onOpened(const ReplayInfo &info)
{
    const QString path = m_info.path;
    m_info = info;
    if (!info.error.isEmpty() || info.firstMs < 0) {
        m_info.error
            = info.error.isEmpty() ? tr("%1 holds no events yet").arg(RecordingStore::shownPath(path)) : info.error;
        m_status->setText(m_info.error);
        emit loaded();
        return;
    }
    {
        const QSignalBlocker blocker(m_server);
        for (const QByteArray &server : info.servers)
            m_server->addItem(QString::fromUtf8(server), server);
    }
    m_unitMs = qMax<qint64>(1, (info.lastMs - info.firstMs + kSliderSteps - 1) / kSliderSteps);
    {
        const QSignalBlocker blocker(m_slider);
        m_slider->setRange(0, sliderOf(info.lastMs) + (timeOfSlider(sliderOf(info.lastMs)) < info.lastMs ? 1 : 0));
        m_slider->setSingleStep(int(qMax<qint64>(1, 1000 / m_unitMs)));
        m_slider->setPageStep(int(qMax<qint64>(1, 60000 / m_unitMs)));
        m_slider->setEnabled(true);
    }
    // No range on the field: a range of a few seconds would refuse the keystrokes of a time typed over it, digit by
    // digit; a moment outside the recording goes to its nearest end.
    // The end of the recording first: the question is usually about the last thing that happened.
    seekTo(info.lastMs);
    emit loaded();
}

void ReplayWindow::seekTo(qint64 timeMs)
{
    if (m_info.firstMs < 0)
        return;
    m_momentMs = qBound(m_info.firstMs, timeMs, m_info.lastMs);
    {
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(sliderOf(m_momentMs));
    }
    {
        const QSignalBlocker blocker(m_moment);
        m_moment->setText(momentText(m_momentMs));
    }
    m_history->setMomentMs(m_momentMs);
    m_engine->seek(m_momentMs);
}

void ReplayWindow::onSliderMoved(int value)
{
    seekTo(value >= m_slider->maximum() ? m_info.lastMs : timeOfSlider(value));
}

void ReplayWindow::onFrame(const ReplayFrame &frame)
{
    // Rows that go move the view's current row to a neighbour, which the view selects: not a person's choice.
    m_applyingFrame = true;
    m_locks->setFrame(frame);
    m_events->setEvents(frame.recent);
    int held = 0;
    for (const ReplayRow &row : frame.rows)
        held += row.owners.isEmpty() ? 0 : 1;
    QString text = tr("%1 on %2: %n lock(s)", nullptr, int(frame.rows.size()))
                       .arg(momentText(frame.timeMs), QString::fromUtf8(frame.server));
    text += QLatin1String(", ") + tr("%n held", nullptr, held);
    if (!frame.error.isEmpty())
        text = frame.error;
    else if (!frame.seen)
        text += QLatin1String(" — ") + tr("not seen: %1").arg(frame.unseenReason);
    m_status->setText(text);
    // The lock whose history page is open is followed: selected while it is in the table, and no other row selected
    // in its place while it is not (a row that went would otherwise hand the selection to its neighbour).
    const int row = m_historyOf.isEmpty() ? -1 : m_locks->rowOf(m_historyOf);
    const QModelIndex shown = row < 0 ? QModelIndex() : m_locks->index(row, 0);
    if (!m_historyOf.isEmpty() && m_history->rowCount() > 0)
        m_historyTitle->setText(shown.isValid()
                ? tr("History of %1: %n event(s)", nullptr, m_history->rowCount()).arg(escapeBytes(m_historyOf))
                : tr("History of %1 (not held at this moment)").arg(escapeBytes(m_historyOf)));
    if (!shown.isValid())
        m_locksView->selectionModel()->clear();
    else if (!m_locksView->selectionModel()->isRowSelected(shown.row()))
        m_locksView->selectionModel()->setCurrentIndex(
            shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_applyingFrame = false;
    followHistory();
    updateChart();
    askForContention();
    emit frameShown();
}

void ReplayWindow::askForContention()
{
    // An hour of events folded is work: done only for the page in sight, and once the moment has settled.
    if (m_pages->currentIndex() != kContentionPage || m_engine->busy() || m_momentMs < 0
        || m_contentionShownMs == m_momentMs)
        return;
    m_contentionTitle->setText(tr("Folding the hour before %1…").arg(momentText(m_momentMs)));
    m_engine->requestContention(m_momentMs, kContentionWindowMs);
}

void ReplayWindow::requestHistory()
{
    if (m_historyOf.isEmpty() || m_momentMs < 0)
        return;
    m_historyPending = true;
    m_engine->requestHistory(m_historyOf, m_momentMs);
}

void ReplayWindow::followHistory()
{
    // The page holds the events around the moment it was read for; a moment outside them reads them again.
    if (!m_historyPending && !m_historyOf.isEmpty() && (m_momentMs < m_historyFromMs || m_momentMs > m_historyToMs))
        requestHistory();
}

void ReplayWindow::updateChart()
{
    // The followed lock's holds up to the moment, ending there: its bars as the live detail pane draws them.
    QList<LockEvent> timeline;
    for (const RecordedEvent &e : m_history->events()) {
        LockEvent event;
        if (e.timeMs <= m_momentMs && e.toLockEvent(&event))
            timeline << event;
    }
    const int row = m_historyOf.isEmpty() ? -1 : m_locks->rowOf(m_historyOf);
    m_chart->setEndMs(m_momentMs);
    m_chart->setTimeline(timeline, row < 0 ? QList<QByteArray> {} : m_locks->rows().at(row).owners);
}

void ReplayWindow::onSelectionChanged()
{
    const QByteArray name = selectedLock();
    if (m_applyingFrame || name.isEmpty() || name == m_historyOf)
        return;
    m_nextEvent->setEnabled(true);
    m_historyOf = name;
    m_historyTitle->setText(tr("Reading the history of %1…").arg(escapeBytes(name)));
    requestHistory();
}

void ReplayWindow::jumpToNextEvent()
{
    if (!m_historyOf.isEmpty())
        m_engine->findNextEvent(m_historyOf, m_momentMs);
}

void ReplayWindow::setPlaying(bool playing)
{
    if (!playing) {
        m_playTimer->stop();
        return;
    }
    if (m_momentMs >= m_info.lastMs)
        seekTo(m_info.firstMs);
    m_playClock.start();
    m_playTimer->start();
}

void ReplayWindow::tick()
{
    // The time that passed since the last tick, not the timer's interval: a busy machine plays at the chosen speed
    // all the same, in bigger steps.
    const qint64 elapsed = m_playClock.restart();
    const qint64 next = m_momentMs + elapsed * m_speed->currentData().toInt();
    seekTo(next);
    if (next >= m_info.lastMs)
        m_play->setChecked(false);
}

} // namespace LockScope
