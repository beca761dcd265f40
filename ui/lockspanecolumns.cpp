// The lock table's columns as a person arranges them: the header restored as it was left, the columns added since
// shown where there is room for them, and the header's menu that shows or hides any column. Beside lockspane.cpp,
// which builds the pane and follows the selection.
#include "lockspane.h"

#include "models/locktablemodel.h"

#include <QEvent>
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>
#include <QTableView>

namespace LockScope {

namespace {
// Renewed's figures ("3.2 s / 10.0 s") and the start of a verdict ("alive (renewing)"; its tooltip has it whole).
constexpr int kRenewedWidth = 90;
constexpr int kLivenessWidth = 130;
} // namespace

void LocksPane::restoreHeader(const QByteArray &state, int savedColumns)
{
    QHeaderView *header = m_view->horizontalHeader();
    // A state saved with fewer columns gets the others appended, shown, at the default width (QHeaderView).
    const bool restored = header->restoreState(state);
    if (!restored) {
        // Renewed and Liveness after Age; Warnings stays last, taking what room is left.
        header->moveSection(
            header->visualIndex(LockTableModel::Renewed), header->visualIndex(LockTableModel::Warnings));
        header->moveSection(
            header->visualIndex(LockTableModel::Liveness), header->visualIndex(LockTableModel::Warnings));
    }
    // The columns the person has not chosen about (all of Renewed's and after it, for a state saved before them).
    m_autoFrom = qBound(int(LockTableModel::Renewed), restored && savedColumns > 0 ? savedColumns : 0,
        int(LockTableModel::ColumnCount));
    if (!restored || savedColumns <= 0) // columns the state did not know of
        for (int column = m_autoFrom; column < LockTableModel::ColumnCount; ++column)
            m_view->setColumnWidth(column, column == LockTableModel::Liveness ? kLivenessWidth : kRenewedWidth);
    fitOptionalColumns();
}

void LocksPane::fitOptionalColumns()
{
    if (m_autoFrom >= LockTableModel::ColumnCount)
        return;
    // Every other column shown, Warnings at least as wide as its header: what issue 47 keeps in view.
    int needed = m_view->horizontalHeader()->sectionSizeHint(LockTableModel::Warnings);
    for (int column = 0; column < LockTableModel::ColumnCount; ++column)
        if (column != LockTableModel::Warnings && (column >= m_autoFrom || !m_view->isColumnHidden(column)))
            needed += m_view->columnWidth(column);
    // Measured against the room the view has whatever its scroll bars do: against the viewport's width, showing the
    // columns could take a scroll bar away, widen the viewport and hide them again, for ever.
    const int available = m_view->maximumViewportSize().width() - m_view->verticalScrollBar()->sizeHint().width();
    const bool room = needed <= available;
    for (int column = m_autoFrom; column < LockTableModel::ColumnCount; ++column)
        if (m_view->isColumnHidden(column) == room)
            m_view->setColumnHidden(column, !room);
}

bool LocksPane::eventFilter(QObject *watched, QEvent *event)
{
    // The view's own size, not its viewport's: a scroll bar coming or going is no reason to look again.
    if (watched == m_view && event->type() == QEvent::Resize)
        fitOptionalColumns();
    return QWidget::eventFilter(watched, event);
}

QMenu *LocksPane::headerMenu()
{
    auto *menu = new QMenu(this);
    for (int column = LockTableModel::Kind; column < LockTableModel::ColumnCount; ++column) {
        QAction *shown = menu->addAction(m_model->headerData(column, Qt::Horizontal).toString());
        shown->setCheckable(true);
        shown->setChecked(!m_view->isColumnHidden(column));
        connect(shown, &QAction::toggled, this, [this, column](bool on) {
            m_autoFrom = LockTableModel::ColumnCount; // chosen: no longer coming and going with the room
            m_view->setColumnHidden(column, !on);
            if (on && m_view->columnWidth(column) < 20)
                m_view->setColumnWidth(column, m_view->horizontalHeader()->sectionSizeHint(column));
        });
    }
    return menu;
}

} // namespace LockScope
