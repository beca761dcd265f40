#include "blockerspane.h"

#include "models/blockersmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace LockScope {

BlockersPane::BlockersPane(BlockersModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_summary(new QLabel(this))
    , m_view(new QTreeView(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_view->setModel(model);
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true);
    m_view->setAccessibleName(tr("Blockers"));
    // Owner ids are 40 characters: Who and Locks get room for most of them, the verdict for its first words.
    const int em = m_view->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    m_view->header()->resizeSection(BlockersModel::Who, 22 * em);
    m_view->header()->resizeSection(BlockersModel::Locks, 18 * em);
    m_view->header()->resizeSection(BlockersModel::Liveness, 22 * em);
    m_view->header()->resizeSection(BlockersModel::Waiting, 8 * em);
    m_view->header()->setStretchLastSection(true);
    layout->addWidget(m_view);
    // A new tree is shown whole: the chains are the point. An update of texts keeps what the person folded.
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_view->expandAll();
        updateSummary();
    });
    connect(model, &QAbstractItemModel::dataChanged, this, &BlockersPane::updateSummary);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        const QByteArray lock = index.data(BlockersModel::LockRole).toByteArray();
        if (!lock.isEmpty())
            emit lockActivated(lock);
    });
    m_view->expandAll();
    updateSummary();
}

void BlockersPane::updateSummary()
{
    const BlockerReport &r = m_model->report();
    QString text = r.roots.isEmpty() && r.cycles.isEmpty() ? tr("Nobody waits for a lock someone holds.")
                                                           : tr("%n root blocker(s)", nullptr, int(r.roots.size()))
            + QStringLiteral(", ") + tr("%n deadlock(s)", nullptr, int(r.cycles.size()));
    // Never "nothing" when something could not be seen.
    if (!r.partial.isEmpty())
        text += QStringLiteral("<br><b>%1</b> %2")
                    .arg(tr("Partial:"), r.partial.join(QStringLiteral("; ")).toHtmlEscaped());
    m_summary->setText(text);
}

} // namespace LockScope
