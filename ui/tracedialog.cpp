#include "tracedialog.h"

#include "base/durationtext.h"
#include "clients/tracesession.h"
#include "clients/tracestore.h"
#include "kinds/lockclassifier.h"
#include "liveness/holderwatch.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace LockScope {

namespace {
using Identity = TraceFindings::Sighting::Identity;

constexpr int kDefaultSeconds = 10;
constexpr int kTickMs = 200;

QString seconds(qint64 s)
{
    return s < 0 ? QStringLiteral("—") : durationText(s * 1000);
}

// What the trace's own CLIENT LIST says of a connection: listed (open), not listed on a node that was listed (gone), or
// nothing known (its node's listing was not read).
class Listing
{
public:
    explicit Listing(const TraceFindings &f)
        : m_cluster(f.nodes.size() > 1)
    {
        for (const ClientEntry &c : f.clients)
            m_byPlace.insert(c.node + '\n' + c.addr, &c);
        for (const QByteArray &n : f.listedNodes)
            m_listed.insert(m_cluster ? n : QByteArray());
    }
    const ClientEntry *find(const QByteArray &node, const QByteArray &addr) const
    {
        return m_byPlace.value(node + '\n' + addr);
    }
    std::optional<bool> connected(const QByteArray &node, const QByteArray &addr) const
    {
        if (!m_listed.contains(node))
            return std::nullopt;
        return find(node, addr) != nullptr;
    }
    bool cluster() const { return m_cluster; }

private:
    QHash<QByteArray, const ClientEntry *> m_byPlace;
    QSet<QByteArray> m_listed;
    bool m_cluster;
};

QTreeWidget *resultsTree(QWidget *parent, const QString &accessibleName, const QStringList &headers)
{
    auto *tree = new QTreeWidget(parent);
    tree->setAccessibleName(accessibleName);
    tree->setHeaderLabels(headers);
    tree->setRootIsDecorated(false);
    tree->setUniformRowHeights(true);
    tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return tree;
}
} // namespace

TraceDialog::TraceDialog(
    const ConnectionOptions &options, HolderWatch *watch, const LockMonitor *monitor, QWidget *parent)
    : QDialog(parent)
    , m_options(options)
    , m_watch(watch)
    , m_monitor(monitor)
{
    setWindowTitle(tr("Trace clients"));
    auto *layout = new QVBoxLayout(this);
    auto *about = new QLabel(
        tr("<p>A trace runs MONITOR on the server for a few seconds to see which connection sends each lock's owner id "
           "or token, and who keeps retrying a lock: it names the connection of every holder it sees at work, and "
           "tells when that connection closes.</p>"
           "<p><b>What it costs:</b> every command the server runs is copied to LockScope while it runs, which takes "
           "the server CPU time and bandwidth in proportion to its traffic. The cost is measured and shown. It stops "
           "by itself after the time below. It needs the +monitor right (in @admin and @dangerous).</p>"),
        this);
    about->setWordWrap(true);
    about->setTextFormat(Qt::RichText);
    layout->addWidget(about);

    auto *form = new QFormLayout;
    m_seconds = new QSpinBox(this);
    m_seconds->setRange(1, int(TraceSession::maxDurationMs / 1000));
    m_seconds->setValue(kDefaultSeconds);
    m_seconds->setSuffix(tr(" s"));
    m_seconds->setAccessibleName(tr("How long the trace runs, in seconds"));
    form->addRow(tr("&Duration:"), m_seconds);
    layout->addLayout(form);

    auto *run = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setAccessibleName(tr("Time left in the trace"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setFormat(QString());
    run->addWidget(m_progress, 1);
    m_start = new QPushButton(tr("&Start"), this);
    m_stop = new QPushButton(tr("S&top"), this);
    m_stop->setEnabled(false);
    // A duration typed and Return: the trace starts (it only reads).
    m_start->setDefault(true);
    run->addWidget(m_start);
    run->addWidget(m_stop);
    layout->addLayout(run);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    m_tabs = new QTabWidget(this);
    m_holders = resultsTree(m_tabs, tr("Holders and their connections"),
        { tr("Holder / connection"), tr("Name"), tr("Library"), tr("Age"), tr("Idle"), tr("State"), tr("Last seen") });
    m_holders->setRootIsDecorated(true);
    m_tabs->addTab(m_holders, tr("&Holders"));
    m_retriers = resultsTree(m_tabs, tr("Who retries which lock"),
        { tr("Connection"), tr("Lock"), tr("Attempts"), tr("Per second"), tr("As") });
    m_tabs->addTab(m_retriers, tr("&Retries"));
    m_clients = resultsTree(m_tabs, tr("Every connection of CLIENT LIST"),
        { tr("Name"), tr("Address"), tr("Library"), tr("Age"), tr("Idle"), tr("User"), tr("Last command") });
    m_tabs->addTab(m_clients, tr("Co&nnections"));
    layout->addWidget(m_tabs, 1);
    m_cost = new QLabel(this);
    m_cost->setWordWrap(true);
    m_cost->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_cost);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &TraceDialog::reject);
    layout->addWidget(buttons);
    connect(m_start, &QPushButton::clicked, this, &TraceDialog::start);
    connect(m_stop, &QPushButton::clicked, this, &TraceDialog::stop);
    m_countdown.setInterval(kTickMs);
    connect(&m_countdown, &QTimer::timeout, this, &TraceDialog::tick);
    resize(760, 560);
}

TraceDialog::~TraceDialog()
{
    // The session before the router it traces through.
    delete m_session;
    delete m_router;
}

bool TraceDialog::isRunning() const
{
    return m_session && m_session->isRunning();
}

void TraceDialog::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_seconds->setEnabled(!running);
    m_stop->setEnabled(running);
}

void TraceDialog::start()
{
    if (m_session)
        return;
    m_durationMs = qint64(m_seconds->value()) * 1000;
    // A connection of its own: MONITOR takes over the connection it runs on, and nothing of the console waits on it.
    m_router = new RedisRouter(m_options);
    m_session = new TraceSession(m_router, m_durationMs);
    connect(m_session, &TraceSession::started, this, &TraceDialog::onStarted);
    connect(m_session, &TraceSession::finished, this, &TraceDialog::onFinished);
    setRunning(true);
    m_progress->setRange(0, int(m_durationMs));
    m_progress->setValue(int(m_durationMs));
    m_progress->setFormat(tr("starting…"));
    m_status->setStyleSheet(QString());
    m_status->setText(tr("Reading the server's CPU figures, then starting MONITOR…"));
    m_session->start();
}

void TraceDialog::stop()
{
    if (!m_session)
        return;
    m_stop->setEnabled(false);
    m_status->setText(tr("Stopping: reading CLIENT LIST and the server's CPU figures…"));
    m_session->stop();
}

void TraceDialog::reject()
{
    stop();
    QDialog::reject();
}

void TraceDialog::onStarted()
{
    m_elapsed.start();
    m_countdown.start();
    QStringList nodes;
    for (const QByteArray &n : m_session->nodes())
        nodes << QString::fromUtf8(n);
    m_status->setText(tr("Tracing %1 for %2: every command the server runs is copied to LockScope while it runs.")
                          .arg(nodes.join(QStringLiteral(", ")), durationText(m_durationMs)));
    tick();
}

void TraceDialog::tick()
{
    const qint64 left = qMax<qint64>(0, m_durationMs - m_elapsed.elapsed());
    m_progress->setValue(int(left));
    m_progress->setFormat(tr("%1 left").arg(durationText(left)));
}

void TraceDialog::dropSession()
{
    m_countdown.stop();
    // Not from inside the session's own signal: both go once it has returned.
    m_session->disconnect(this);
    m_session->deleteLater();
    m_router->deleteLater();
    m_session = nullptr;
    m_router = nullptr;
    setRunning(false);
}

void TraceDialog::onFinished(const TraceFindings &findings, const RedisError &error)
{
    dropSession();
    m_progress->setValue(0);
    if (error.isError()) {
        // A refusal (no +monitor), a server that cannot be reached: said here, and nothing else changes.
        m_progress->setFormat(tr("not traced"));
        m_status->setStyleSheet(QStringLiteral("QLabel { color: #c62828; }"));
        m_status->setText(error.message());
        return;
    }
    if (findings.startedMs <= 0) {
        m_progress->setFormat(tr("not traced"));
        m_status->setText(tr("Stopped before the trace started: nothing was traced."));
        return;
    }
    m_progress->setFormat(tr("done"));
    ++m_finished;
    showFindings(findings);
    if (m_watch)
        m_watch->addTrace(findings);
    QString saveError;
    const QString kept = TraceStore::save(m_options, findings, &saveError)
        ? tr("Kept for lockscope-cli in %1.").arg(TraceStore::path(m_options))
        : tr("Could not be kept for lockscope-cli in %1: %2").arg(TraceStore::path(m_options), saveError);
    m_status->setText(tr("Traced for %1: %2 identities seen, %3 retrying. The table, the detail pane and Force "
                         "release now name the holders' connections. %4")
                          .arg(durationText(findings.cost.wallMs))
                          .arg(m_holders->topLevelItemCount())
                          .arg(m_retriers->topLevelItemCount())
                          .arg(kept));
    emit traced(findings);
}

QList<TraceFindings::Retrier> TraceDialog::waiters(const TraceFindings &findings) const
{
    QList<TraceFindings::Retrier> out;
    for (const TraceFindings::Retrier &r : findings.retriers) {
        bool holds = false;
        if (const LockRecord *record = m_monitor ? m_monitor->record(r.key) : nullptr; record && record->present)
            for (const LockHolder &h : record->info.holders)
                holds = holds || h.owner == r.identity;
        if (!holds)
            out << r;
    }
    return out;
}

void TraceDialog::showFindings(const TraceFindings &f)
{
    const Listing listing(f);
    const auto where = [&listing](const QByteArray &node, const QByteArray &addr) {
        const QString place = escapeBytes(addr, 60);
        return listing.cluster() ? tr("%1 @%2").arg(place, QString::fromUtf8(node)) : place;
    };
    const auto nameOf = [&listing](const QByteArray &node, const QByteArray &addr) {
        const ClientEntry *c = listing.find(node, addr);
        return c && !c->name.isEmpty() ? escapeBytes(c->name, 60) : QString();
    };

    // Holders: each identity seen, with every connection that sent it.
    m_holders->clear();
    QList<const TraceFindings::Sighting *> sightings;
    for (const TraceFindings::Sighting &s : f.sightings)
        sightings << &s;
    std::stable_sort(sightings.begin(), sightings.end(), [](const auto *a, const auto *b) {
        return a->kind != b->kind ? int(a->kind) < int(b->kind) : a->identity < b->identity;
    });
    QHash<QPair<int, QByteArray>, QTreeWidgetItem *> identities;
    QHash<QTreeWidgetItem *, QStringList> keysOf;
    for (const TraceFindings::Sighting *s : std::as_const(sightings)) {
        QTreeWidgetItem *&top = identities[{ int(s->kind), s->identity }];
        if (!top) {
            const QString kind = s->kind == Identity::Owner ? tr("owner id")
                : s->kind == Identity::Client               ? tr("client id")
                                                            : tr("token");
            top = new QTreeWidgetItem(m_holders, { escapeBytes(s->identity, 80), kind });
            top->setExpanded(true);
        }
        QStringList &keys = keysOf[top];
        for (const QByteArray &k : s->keys)
            if (const QString key = escapeBytes(k, 80); !keys.contains(key))
                keys << key;
        top->setToolTip(0, tr("Locks it named: %1").arg(keys.join(QStringLiteral(", "))));
        const ClientEntry *c = listing.find(s->node, s->addr);
        const std::optional<bool> connected = listing.connected(s->node, s->addr);
        new QTreeWidgetItem(top,
            { where(s->node, s->addr), nameOf(s->node, s->addr), c ? escapeBytes(c->lib(), 30) : QString(),
                c ? seconds(c->ageS) : QStringLiteral("—"), c ? seconds(c->idleS) : QStringLiteral("—"),
                !connected       ? tr("not listed")
                    : *connected ? tr("open")
                                 : tr("gone"),
                QDateTime::fromMSecsSinceEpoch(s->lastMs).toString(QStringLiteral("HH:mm:ss.zzz")) });
    }

    // Who retries which lock, and how often.
    m_retriers->clear();
    for (const TraceFindings::Retrier &r : waiters(f)) {
        const QString name = nameOf(r.node, r.addr);
        new QTreeWidgetItem(m_retriers,
            { name.isEmpty() ? where(r.node, r.addr) : tr("%1 (%2)").arg(name, where(r.node, r.addr)),
                escapeBytes(r.key, 80), QString::number(r.attempts), QString::number(r.perSecond(), 'f', 1),
                escapeBytes(r.identity, 60) });
    }

    // Every connection the server listed at the end.
    m_clients->clear();
    for (const ClientEntry &c : f.clients)
        new QTreeWidgetItem(m_clients,
            { c.name.isEmpty() ? QStringLiteral("—") : escapeBytes(c.name, 60), where(c.node, c.addr),
                c.lib().isEmpty() ? QStringLiteral("—") : escapeBytes(c.lib(), 30), seconds(c.ageS), seconds(c.idleS),
                escapeBytes(c.user, 30), escapeBytes(c.cmd, 30) });

    const QString wall = QString::number(double(f.cost.wallMs) / 1000, 'f', 1);
    QString cost = f.cost.serverCpuMs >= 0
        ? tr("Cost: the server spent %1 ms of CPU in %2 s (%3 % of a core); MONITOR sent %4 lines, %5 bytes.")
              .arg(f.cost.serverCpuMs)
              .arg(wall)
              .arg(f.cost.wallMs > 0 ? 100.0 * double(f.cost.serverCpuMs) / double(f.cost.wallMs) : 0.0, 0, 'f', 1)
              .arg(f.cost.lines)
              .arg(f.cost.bytes)
        : tr("Cost: the server's CPU could not be read (INFO cpu); MONITOR sent %1 lines, %2 bytes in %3 s.")
              .arg(f.cost.lines)
              .arg(f.cost.bytes)
              .arg(wall);
    for (const QString &why : f.partial)
        cost += QLatin1Char('\n') + tr("Partial: %1").arg(why);
    m_cost->setText(cost);
}

} // namespace LockScope
