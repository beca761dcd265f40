#include "detailpane.h"

#include "holdchart.h"
#include "kinds/locklayouts.h"
#include "liveness/holderwatch.h"
#include "livenesstext.h"
#include "models/locktexts.h"
#include "models/locktimelinemodel.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"

#include <QDateTime>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace LockScope {

namespace {
constexpr qsizetype kMaxHoldersJudged = 32;
} // namespace

DetailPane::DetailPane(LockMonitor *monitor, QWidget *parent)
    : QWidget(parent)
    , m_monitor(monitor)
    , m_timeline(new LockTimelineModel(monitor, 500, this))
{
    // On a short screen the parts scroll together rather than squeeze over each other: every part keeps at least its
    // minimum height (the chart its axis, the "Why" text its lines).
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *content = new QWidget(scroll);
    scroll->setWidget(content);
    outer->addWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(content);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::RichText);
    layout->addWidget(m_title);

    m_holders = new QTreeWidget(content);
    m_holders->setAccessibleName(tr("Holders"));
    m_holders->setRootIsDecorated(false);
    m_holders->setHeaderLabels({ tr("Holder"), tr("Count"), tr("Note") });
    m_holders->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_holders->setMaximumHeight(110);
    layout->addWidget(m_holders);

    m_queue = new QTreeWidget(content);
    m_queue->setAccessibleName(tr("Fair queue"));
    m_queue->setRootIsDecorated(false);
    m_queue->setHeaderLabels({ tr("#"), tr("Queued"), tr("Remaining wait") });
    m_queue->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_queue->setMaximumHeight(90);
    layout->addWidget(m_queue);

    m_evidence = new QLabel(content);
    m_evidence->setWordWrap(true);
    m_evidence->setTextFormat(Qt::RichText);
    m_evidence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_evidence->installEventFilter(this);
    layout->addWidget(m_evidence);

    m_chart = new HoldChart(content);
    layout->addWidget(m_chart);

    // Whether each holder is alive, under who held it when: the "Why" text and the chart keep their place on a short
    // screen, and the timeline below gives way.
    m_liveness = new QLabel(content);
    m_liveness->setAccessibleName(tr("Whether its holders are alive"));
    m_liveness->setWordWrap(true);
    m_liveness->setTextFormat(Qt::RichText);
    m_liveness->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_liveness->installEventFilter(this);
    m_liveness->hide();
    layout->addWidget(m_liveness);

    m_timelineView = new QTableView(content);
    m_timelineView->setAccessibleName(tr("Timeline of the selected lock"));
    m_timelineView->setModel(m_timeline);
    m_timelineView->verticalHeader()->hide();
    m_timelineView->setShowGrid(false);
    m_timelineView->setWordWrap(false);
    m_timelineView->horizontalHeader()->setStretchLastSection(true);
    m_timelineView->setColumnHidden(LockTimelineModel::Lock, true);
    layout->addWidget(m_timelineView, 1);

    connect(monitor, &LockMonitor::locksChanged, this, [this](const LockMonitor::Changes &changes) {
        if (!m_name.isEmpty() && (changes.updated.contains(m_name) || changes.removed.contains(m_name)))
            refresh();
    });
    connect(m_timeline, &QAbstractItemModel::rowsInserted, this, [this] {
        refresh();
        m_timelineView->scrollToBottom();
    });
    setLock({});
}

void DetailPane::setLock(const QByteArray &name)
{
    m_name = name;
    m_timeline->setLock(name);
    refresh();
}

void DetailPane::fitLabel(QLabel *label)
{
    const int needed = label->text().isEmpty() ? 0 : label->heightForWidth(label->width());
    if (label->minimumHeight() == needed)
        return;
    // A word-wrapped label asks its layout for one line's height: held to the height its lines need at its width,
    // the "Why" text is never cut off, and the timeline below gives way instead.
    label->setMinimumHeight(needed);
}

bool DetailPane::eventFilter(QObject *watched, QEvent *event)
{
    // The label's own width is known only once the scroll area has laid it out: fitted on each of its resizes.
    if ((watched == m_evidence || watched == m_liveness) && event->type() == QEvent::Resize)
        fitLabel(static_cast<QLabel *>(watched));
    return QWidget::eventFilter(watched, event);
}

void DetailPane::setHolderWatch(const HolderWatch *watch)
{
    if (m_watch)
        disconnect(m_watch, nullptr, this, nullptr);
    m_watch = watch;
    if (watch)
        connect(watch, &HolderWatch::changed, this, &DetailPane::refresh);
    refresh();
}

QString DetailPane::livenessHtml(const LockRecord &r) const
{
    // A person reading the pane decides about this one lock: its holders are judged one by one (the table judges a few
    // a row), up to a number that still reads, and that a repaint every half second can afford.
    const QList<LockHolder> &holders = r.info.holders;
    QString html = LivenessText::headingHtml(int(holders.size()));
    for (qsizetype i = 0; i < holders.size() && i < kMaxHoldersJudged; ++i) {
        if (holders.size() > 1)
            html += QStringLiteral("<p style=\"margin-bottom:0px\"><tt>%1</tt></p>")
                        .arg(escapeBytes(holders.at(i).owner, 200).toHtmlEscaped());
        html += LivenessText::holderHtml(*m_watch, r.info, holders.at(i));
    }
    if (holders.size() > kMaxHoldersJudged)
        html += LivenessText::moreHoldersHtml(int(holders.size() - kMaxHoldersJudged));
    return html;
}

void DetailPane::setOwnHolds(const QHash<QByteArray, QByteArray> &tokens)
{
    m_own.setTokens(tokens);
    refresh();
}

void DetailPane::setOwnWatchdogs(const QHash<QByteArray, bool> &watchdogs)
{
    m_own.setWatchdogs(watchdogs);
    refresh();
}

void DetailPane::refresh()
{
    const LockRecord *r = m_name.isEmpty() ? nullptr : m_monitor->record(m_name);
    m_holders->clear();
    m_queue->clear();
    if (!r) {
        m_title->setText(tr("<i>Select a lock to see its holders, queue, evidence and history.</i>"));
        m_evidence->clear();
        m_liveness->clear();
        m_liveness->hide();
        m_chart->setTimeline({}, {});
        m_queue->hide();
        return;
    }
    const LockInfo &info = r->info;
    const qint64 now = monotonicMs();
    // "TTL 12 s", "no TTL", "gone": never "TTL no TTL".
    const QString ttl = !r->present ? tr("gone")
        : r->deadlineMs < 0         ? tr("no TTL")
                                    : tr("TTL %1").arg(LockTexts::durationText(r->remainingMs(now)));
    const LockCapabilities caps = LockLayouts::forRecord(info.kind).capabilities();
    const auto isOurs = [&](const LockHolder &h) { return m_own.isOurs(*r, h); };
    // Our own hold's watchdog is known: the header says what the table's Watchdog column says, not a guess.
    const std::optional<bool> ownWatchdog = m_own.watchdog(info.name);
    const QString watchdog = ownWatchdog && m_own.isOurs(*r) ? LockTexts::ownWatchdogText(*ownWatchdog)
                                                             : LockTexts::watchdogText(r->watchdog);
    // Without a wake-up channel (a string lock) "0 waiting" would claim to know what nobody can see.
    m_title->setText(!caps.wakeChannel
            ? tr("<b>%1</b> · %2 · %3 · watchdog %4")
                  .arg(escapeBytes(info.name, 200).toHtmlEscaped(), LockTexts::kindText(info.kind), ttl, watchdog)
            // A queue counts threads; a wake-up channel counts subscribed connections (a JVM has one, whatever its
            // waiting threads): said, so that "1 waiting" is not read as one thread (issue 47).
            : (info.queue.isEmpty() ? tr("<b>%1</b> · %2%3 · %4 · watchdog %5 · %6 waiting (connections)")
                                    : tr("<b>%1</b> · %2%3 · %4 · watchdog %5 · %6 waiting (queued threads)"))
                  .arg(escapeBytes(info.name, 200).toHtmlEscaped(), LockTexts::kindText(info.kind),
                      info.mode.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(LockLayouts::modeText(info.mode)),
                      ttl, watchdog, info.waiters < 0 ? QStringLiteral("?") : QString::number(info.waiters)));
    QList<QByteArray> owners;
    bool heldByUs = false;
    for (const LockHolder &h : info.holders) {
        owners << h.owner;
        QStringList notes;
        const bool ours = isOurs(h);
        heldByUs = heldByUs || ours;
        if (ours)
            notes << tr("ours");
        if (h.writer)
            notes << tr("writer");
        if (h.deadReader)
            notes << tr("dead reader: its timeout keys are gone");
        auto *item = new QTreeWidgetItem(
            m_holders, { escapeBytes(h.owner, 200), QString::number(h.count), notes.join(QStringLiteral(", ")) });
        item->setToolTip(0,
            caps.tokenHolder
                ? tr("the token: the key's value, which its holder deletes it with")
                : tr("client %1, thread %2").arg(QString::fromLatin1(h.client), escapeBytes(h.thread, 80)));
    }
    const qint64 epoch = QDateTime::currentMSecsSinceEpoch();
    int position = 0;
    for (const auto &[owner, deadline] : info.queue) {
        new QTreeWidgetItem(m_queue,
            { QString::number(++position), escapeBytes(owner, 200),
                deadline < 0 ? tr("unknown") : LockTexts::durationText(qMax<qint64>(0, deadline - epoch)) });
    }
    m_queue->setVisible(!info.queue.isEmpty());
    const bool judged = m_watch && r->present && !info.holders.isEmpty();
    m_liveness->setText(judged ? livenessHtml(*r) : QString());
    m_liveness->setVisible(judged);
    fitLabel(m_liveness);
    QString text;
    if (const QString waits = m_waits ? m_waits(info.name) : QString(); !waits.isEmpty())
        text += QStringLiteral("<p>%1</p>").arg(waits.toHtmlEscaped());
    for (const QString &w : m_own.warnings(*r, now))
        text += QStringLiteral("<p style=\"color:#c62828\">⚠ %1</p>").arg(w.toHtmlEscaped());
    const QString client = QString::fromLatin1(m_own.clientId()).toHtmlEscaped();
    if (heldByUs) {
        // This console took it: what it is is known, not inferred from its shape (whose owner ids are not Java's).
        text += tr("<p><b>Held by this console</b> (high confidence): it took this %1 lock itself, as client %2.</p>")
                    .arg(LockTexts::kindText(info.kind), client);
    } else if (!r->present && m_own.heldBefore(info.name)) {
        // Gone after this console held it: still what the console did, not a guess from the shape it had.
        text += tr("<p><b>Held by this console</b> until it ended (%1): it took this %2 lock itself, as client "
                   "%3. Its history is below.</p>")
                    .arg(LockTexts::endingText(*r).toHtmlEscaped(), LockTexts::kindText(info.kind), client);
    } else {
        if (const QString low = lowConfidenceText(info); !low.isEmpty())
            text += QStringLiteral("<p style=\"color:#b26a00\">%1</p>").arg(low.toHtmlEscaped());
        text += tr("<p><b>Why %1:</b> %2</p>")
                    .arg(LockTexts::kindText(info.kind), info.evidence.join(QStringLiteral("; ")).toHtmlEscaped());
    }
    m_evidence->setText(text);
    fitLabel(m_evidence);
    m_chart->setTimeline(r->timeline, owners);
}

} // namespace LockScope
