#include "guide/guidewindow.h"

#include "guide/actorlanes.h"
#include "guide/channelstrip.h"
#include "guide/guidepalette.h"
#include "guide/guideplayer.h"
#include "guide/guidetext.h"
#include "guide/lockcard.h"
#include "local/localredisserver.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

namespace LockScope::Guide {

namespace {
// The wire log's styling: a step that went otherwise than narrated in red, calls inferred (no MONITOR) in italics.
class LogDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(GuideLogModel::UnexpectedRole).toBool())
            option->palette.setColor(QPalette::Text, goneColor());
        if (index.column() == GuideLogModel::Ran && index.data(GuideLogModel::InferredRole).toBool())
            option->font.setItalic(true);
    }
};

struct Speed
{
    const char *name;
    int ms;
};
const Speed speeds[] = {
    { QT_TRANSLATE_NOOP("LockScope::Guide::GuideWindow", "fast (T = 3 s)"), 3000 },
    { QT_TRANSLATE_NOOP("LockScope::Guide::GuideWindow", "normal (T = 6 s)"), 6000 },
    { QT_TRANSLATE_NOOP("LockScope::Guide::GuideWindow", "real (T = 30 s, Redisson's default)"), 30000 },
};
} // namespace

GuideWindow::GuideWindow(std::optional<ConnectionOptions> server, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_connection(std::move(server))
{
    setWindowTitle(tr("Guided demo — LockScope"));
    build();
    m_frame.setInterval(50); // 20 frames a second: smooth countdowns, little work
    connect(&m_frame, &QTimer::timeout, this, &GuideWindow::frame);
    if (!m_connection) {
        // A server of the demo's own: the player may use MONITOR and keyspace events there.
        m_server = new LocalRedisServer(this);
        connect(m_server, &LocalRedisServer::ready, this, [this] {
            m_connection = ConnectionOptions::fromUrl(m_server->url());
            setStatus(tr("Ready on a private redis-server at %1. Space plays, → steps.").arg(m_server->url()));
            if (const auto pending = std::exchange(m_pending, std::nullopt))
                begin(*pending);
        });
        connect(m_server, &LocalRedisServer::failed, this, [this](const QString &error) {
            m_serverError = error;
            setStatus(tr("Cannot start a private redis-server: %1").arg(error));
        });
        m_server->startAsync();
        setStatus(tr("Starting a private redis-server…"));
    } else {
        setStatus(tr("Space plays the scenario, → steps through it."));
    }
    m_list->setCurrentRow(0);
    resize(1280, 800);
}

GuideWindow::~GuideWindow()
{
    // The player's clients and the private server go with the window; the player leaves no guided key behind
    // only when it can finish, so stop it while the server still runs.
    if (m_player)
        m_player->stop();
}

void GuideWindow::setActorProgram(const QString &program, const QStringList &arguments)
{
    m_actorProgram = program;
    m_actorArguments = arguments;
}

void GuideWindow::setPacing(int minGapMs, int readingMsPerChar)
{
    m_minGapMs = minGapMs;
    m_readingMsPerChar = readingMsPerChar;
}

void GuideWindow::build()
{
    m_list = new QListWidget;
    m_list->setAccessibleName(tr("Scenarios"));
    for (const Scenario &s : scenarios()) {
        QStringList seeds;
        for (int seed : s.seeds)
            seeds << QStringLiteral("%1").arg(seed, 3, 10, QLatin1Char('0'));
        auto *item = new QListWidgetItem(QStringLiteral("%1  %2").arg(QString::fromLatin1(s.id), translated(s.title)));
        item->setData(Qt::UserRole, QString::fromLatin1(s.id));
        item->setToolTip(translated(s.summary) + QStringLiteral("\n")
            + tr("Articles: %1").arg(seeds.join(QStringLiteral(", ")))
            + (s.tags.isEmpty() ? QString() : QStringLiteral("   [%1]").arg(s.tags.join(QStringLiteral("] [")))));
        m_list->addItem(item);
    }
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        if (m_player) {
            m_restart = false;
            m_player->stop();
        }
        m_stage.reset(scenarios().at(row), m_timeScaleMs);
        m_lanes->updateGeometry(); // as many lanes as the scenario has actors
        m_log.clear();
        m_narrated.clear();
        showIntro();
        frame();
    });

    m_card = new LockCard(&m_stage);
    m_channel = new ChannelStrip(&m_stage);
    m_lanes = new ActorLanes(&m_stage);
    m_logView = new QTreeView;
    m_logView->setAccessibleName(tr("Wire log"));
    m_logView->setModel(&m_log);
    m_logView->setRootIsDecorated(false);
    m_logView->setUniformRowHeights(true);
    m_logView->setItemDelegate(new LogDelegate(m_logView));
    // The command is what people read; the rest keeps to its content.
    m_logView->header()->setStretchLastSection(false);
    m_logView->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_logView->header()->setSectionResizeMode(GuideLogModel::Call, QHeaderView::Stretch);
    // Long lists of calls and Java's exception text keep to a width of their own (their tooltips say it whole).
    for (const int column : { int(GuideLogModel::Ran), int(GuideLogModel::Outcome) }) {
        m_logView->header()->setSectionResizeMode(column, QHeaderView::Interactive);
        m_logView->header()->resizeSection(column, m_logView->fontMetrics().averageCharWidth() * 22);
    }
    m_narration = new QTextBrowser;
    m_narration->setAccessibleName(tr("Narration"));
    m_narration->setOpenLinks(false);

    m_playButton = new QPushButton(tr("Play (Space)"));
    m_stepButton = new QPushButton(tr("Step (→)"));
    m_restartButton = new QPushButton(tr("Restart (R)"));
    m_presenterButton = new QPushButton(tr("Presenter (F5)"));
    m_presenterButton->setCheckable(true);
    m_speed = new QComboBox;
    for (const Speed &s : speeds)
        m_speed->addItem(tr(s.name), s.ms);
    m_speed->setCurrentIndex(1);
    m_version = new QComboBox;
    m_version->addItem(tr("Redisson 3.24 to 4.x"), int(UnlockEffect::V4));
    m_version->addItem(tr("Redisson 3.22 and 3.23"), int(UnlockEffect::V322));
    m_version->addItem(tr("Redisson 3.10.6 to 3.21"), int(UnlockEffect::V321));
    m_version->addItem(tr("Redisson 3.10.5 and older"), int(UnlockEffect::V2));
    m_version->setToolTip(tr("Whose unlock the scripts reproduce"));
    m_status = new QLabel;
    m_status->setWordWrap(true);
    // Keyboard only in front of an audience: the buttons never take the keys away from the window.
    for (QWidget *w : { static_cast<QWidget *>(m_playButton), static_cast<QWidget *>(m_stepButton),
             static_cast<QWidget *>(m_restartButton), static_cast<QWidget *>(m_presenterButton),
             static_cast<QWidget *>(m_speed), static_cast<QWidget *>(m_version) })
        w->setFocusPolicy(Qt::NoFocus);
    connect(m_playButton, &QPushButton::clicked, this, &GuideWindow::play);
    connect(m_stepButton, &QPushButton::clicked, this, &GuideWindow::step);
    connect(m_restartButton, &QPushButton::clicked, this, &GuideWindow::restart);
    connect(m_presenterButton, &QPushButton::toggled, this, &GuideWindow::setPresenterMode);
    connect(m_speed, &QComboBox::currentIndexChanged, this,
        [this](int index) { setTimeScaleMs(m_speed->itemData(index).toInt()); });

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_playButton);
    controls->addWidget(m_stepButton);
    controls->addWidget(m_restartButton);
    controls->addWidget(m_speed);
    controls->addWidget(m_version);
    controls->addWidget(m_presenterButton);
    controls->addStretch(1);
    QFont statusFont = m_status->font();
    statusFont.setBold(true);
    m_status->setFont(statusFont);

    auto *centre = new QSplitter(Qt::Vertical);
    auto *stage = new QWidget;
    auto *stageLayout = new QVBoxLayout(stage);
    stageLayout->setContentsMargins(0, 0, 0, 0);
    stageLayout->addWidget(m_card, 3);
    stageLayout->addWidget(m_channel, 1);
    stageLayout->addWidget(m_lanes, 4);
    centre->addWidget(stage);
    centre->addWidget(m_logView);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 2);

    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_list);
    split->addWidget(centre);
    split->addWidget(m_narration);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 6);
    split->setStretchFactor(2, 3);
    split->setSizes({ 270, 650, 360 });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    // The widgets that can have the focus keep their own keys, except the ones the presenter uses.
    for (QWidget *w :
        { static_cast<QWidget *>(m_list), static_cast<QWidget *>(m_logView), static_cast<QWidget *>(m_narration) })
        w->installEventFilter(this);
    m_baseFont = font();
}

QString GuideWindow::currentScenario() const
{
    return m_list->currentItem() ? m_list->currentItem()->data(Qt::UserRole).toString() : QString();
}

bool GuideWindow::selectScenario(const QString &idOrSlug)
{
    const Scenario *s = findScenario(idOrSlug);
    if (!s)
        return false;
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(Qt::UserRole).toString() == QLatin1String(s->id))
            m_list->setCurrentRow(i);
    }
    return true;
}

void GuideWindow::setTimeScaleMs(int ms)
{
    m_timeScaleMs = ms;
    for (int i = 0; i < m_speed->count(); ++i) {
        if (m_speed->itemData(i).toInt() == ms && m_speed->currentIndex() != i)
            m_speed->setCurrentIndex(i);
    }
    if (!m_player)
        m_stage.reset(m_stage.scenario(), ms);
}

bool GuideWindow::isWaitingForStep() const
{
    return m_player && m_player->isWaiting();
}

void GuideWindow::play()
{
    if (!m_player) {
        start(Mode::Play);
        return;
    }
    if (m_mode == Mode::Play && !m_paused) {
        // Pause: the player stops before its next step that may wait (a live phase runs on, as Redis does).
        m_paused = true;
        m_player->setStepMode(true);
        setStatus(tr("Pausing before the next step that can wait; Space plays on."));
        return;
    }
    if (m_mode == Mode::Play) {
        m_paused = false;
        m_player->setStepMode(false);
    }
    if (m_player->isWaiting())
        m_player->next();
}

void GuideWindow::step()
{
    if (!m_player) {
        start(Mode::Step);
        return;
    }
    if (m_player->isWaiting())
        m_player->next();
    else
        setStatus(tr("Live: Redis keeps time and the TTLs run on; the next pause comes after this phase."));
}

void GuideWindow::restart()
{
    if (m_player) {
        m_restart = true;
        m_player->stop();
        return;
    }
    start(m_mode);
}

void GuideWindow::start(Mode mode)
{
    if (!m_connection) {
        if (!m_serverError.isEmpty())
            setStatus(tr("Cannot start a private redis-server: %1").arg(m_serverError));
        m_pending = mode;
        return;
    }
    begin(mode);
}

void GuideWindow::begin(Mode mode)
{
    const Scenario *scenario = findScenario(currentScenario());
    if (!scenario || m_player)
        return;
    m_mode = mode;
    GuidePlayer::Options options;
    options.timeScaleMs = m_timeScaleMs;
    options.ownServer = true;
    options.unlockEffect = UnlockEffect(m_version->currentData().toInt());
    options.stepMode = mode == Mode::Step;
    options.minGapMs = m_minGapMs;
    options.readingMsPerChar = mode == Mode::Play ? m_readingMsPerChar : 0;
    m_paused = false;
    options.actorProgram = m_actorProgram;
    options.actorArguments = m_actorArguments;
    m_stage.reset(*scenario, m_timeScaleMs);
    m_log.clear();
    m_narrated.clear();
    showIntro();
    m_player = new GuidePlayer(*m_connection, options, this);
    connect(m_player, &GuidePlayer::record, this, &GuideWindow::onRecord);
    connect(m_player, &GuidePlayer::finished, this, &GuideWindow::onFinished);
    connect(m_player, &GuidePlayer::waitingForNext, this, [this](int step) {
        if (m_paused)
            setStatus(tr("Paused: step %1 of %2 is next. Space plays on, → steps.")
                          .arg(step)
                          .arg(m_stage.scenario().steps.size()));
        else
            setStatus(tr("Step %1 of %2 is next: → or Space").arg(step).arg(m_stage.scenario().steps.size()));
    });
    m_speed->setEnabled(false);
    m_version->setEnabled(false);
    m_player->play(*scenario);
    m_frame.start();
    setStatus(tr("Playing %1 at T = %2 s").arg(QString::fromLatin1(scenario->id)).arg(m_timeScaleMs / 1000.0));
}

void GuideWindow::onRecord(const GuideRecord &record)
{
    m_stage.apply(record);
    m_log.append(record);
    m_logView->scrollToBottom();
    if (record.type != GuideRecord::Type::Step)
        return;
    m_narrated << record;
    renderNarration();
    const auto &steps = m_stage.scenario().steps;
    if (m_paused)
        return; // the status says it pauses
    if (record.step < steps.size() && steps.at(record.step).live && !(m_player && m_player->isWaiting()))
        setStatus(tr("Live: Redis keeps time and the TTLs run on; this phase cannot pause."));
    else if (m_mode == Mode::Play)
        setStatus(tr("Step %1 of %2").arg(record.step).arg(steps.size()));
}

void GuideWindow::onFinished(int unexpected, const QString &error)
{
    m_player->deleteLater();
    m_player = nullptr;
    m_paused = false;
    m_frame.stop();
    frame();
    m_speed->setEnabled(true);
    m_version->setEnabled(true);
    if (std::exchange(m_restart, false)) {
        begin(m_mode);
        return;
    }
    if (!error.isEmpty())
        setStatus(tr("Could not play: %1").arg(error));
    else if (unexpected == 0)
        setStatus(tr("Done: every step went as narrated. R plays it again, ↓ goes to the next scenario."));
    else
        setStatus(tr("Done: %n step(s) went otherwise than narrated (in red).", nullptr, unexpected));
    emit finished(unexpected, error);
}

void GuideWindow::frame()
{
    const qint64 now = m_player ? m_player->nowMs() : (m_narrated.isEmpty() ? 0 : m_narrated.last().tMs);
    m_card->setNow(now);
    m_channel->setNow(now);
    m_lanes->setNow(now);
}

void GuideWindow::showIntro()
{
    renderNarration();
}

void GuideWindow::renderNarration()
{
    const Scenario &s = m_stage.scenario();
    QStringList seeds;
    for (int seed : s.seeds)
        seeds << QStringLiteral("%1").arg(seed, 3, 10, QLatin1Char('0'));
    QString html = QStringLiteral("<h3>%1 %2</h3><p>%3</p><p><i>%4</i></p>")
                       .arg(QString::fromLatin1(s.id), translated(s.title).toHtmlEscaped(),
                           translated(s.summary).toHtmlEscaped(),
                           tr("Draws on articles %1 (docs/guide.md)").arg(seeds.join(QStringLiteral(", "))));
    for (int i = 0; i < m_narrated.size(); ++i) {
        const GuideRecord &r = m_narrated.at(i);
        const bool current = i == m_narrated.size() - 1;
        html += QStringLiteral("<p%1><b>%2</b> %3</p>")
                    .arg(current ? QStringLiteral(" style=\"background-color:#fff3c4\"") : QString(),
                        tr("%1. +%2 s").arg(r.step).arg(r.tMs / 1000.0, 0, 'f', 1), r.narration.toHtmlEscaped());
        if (r.unexpected)
            html += QStringLiteral("<p style=\"color:#c62828\">%1</p>")
                        .arg(tr("What happened instead: %1").arg(r.seen.join(QStringLiteral("; "))).toHtmlEscaped());
    }
    m_narration->setHtml(html);
    m_narration->verticalScrollBar()->setValue(m_narration->verticalScrollBar()->maximum());
}

void GuideWindow::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString GuideWindow::statusText() const
{
    return m_status->text();
}

void GuideWindow::setPresenterMode(bool on)
{
    // Large type for a projector, at the 1280x720 it most likely has.
    QFont f = m_baseFont;
    if (on)
        f.setPointSizeF(m_baseFont.pointSizeF() * 1.5);
    setFont(f);
    // At a projector's 720 lines the stage takes what its lanes need, and the wire log keeps its header and five
    // rows in the large type; the splitter then cannot squeeze either to a sliver.
    const int row = m_logView->fontMetrics().height() + m_logView->fontMetrics().descent() + 2;
    m_logView->setMinimumHeight(
        on ? m_logView->header()->sizeHint().height() + row * 5 + 2 * m_logView->frameWidth() : 0);
    m_lanes->updateGeometry();
    if (m_presenterButton->isChecked() != on)
        m_presenterButton->setChecked(on);
    if (on)
        resize(1280, 720);
}

bool GuideWindow::handleKey(int key)
{
    switch (key) {
    case Qt::Key_Space:
        play();
        return true;
    case Qt::Key_Right:
    case Qt::Key_PageDown:
        step();
        return true;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
    case Qt::Key_R:
        restart();
        return true;
    case Qt::Key_Up:
    case Qt::Key_Down: {
        const int row = qBound(0, m_list->currentRow() + (key == Qt::Key_Down ? 1 : -1), m_list->count() - 1);
        m_list->setCurrentRow(row);
        return true;
    }
    case Qt::Key_F5:
        setPresenterMode(!m_presenterButton->isChecked());
        return true;
    default:
        return false;
    }
}

void GuideWindow::keyPressEvent(QKeyEvent *event)
{
    if (event->modifiers() == Qt::NoModifier && handleKey(event->key()))
        return;
    QWidget::keyPressEvent(event);
}

bool GuideWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if ((key->modifiers() == Qt::NoModifier || key->modifiers() == Qt::KeypadModifier) && handleKey(key->key()))
            return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace LockScope::Guide
