/**
 * The headline figures of a statistic: each measure's total over the range (money in yen, distinct
 * users, counts) and its change against the previous period of the same length, in %, with that
 * period's value (001 7.8 totals; 000 3 statistic rows total_money, total_user).
 */
import { useTranslation } from 'react-i18next';
import { Card, Flex, Typography, theme } from 'antd';
import type { StatisticAnswer, StatisticDef } from '@/shared/statistics';
import { FigureChange } from './figure-change';
import { changePercent, formatChange, formatMeasure } from './statistic-format';

export function StatisticHeadline({ def, answer }: { def: StatisticDef; answer: StatisticAnswer }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const locale = i18n.language;
  return (
    <Flex wrap gap={12} data-testid="statistic-headline">
      {def.measures.map((m) => {
        const value = answer.totals[m.key] ?? 0;
        const previous = answer.previous[m.key] ?? 0;
        const change = changePercent(value, previous);
        return (
          <Card key={m.key} size="small" style={{ flex: '1 1 140px', minWidth: 140 }} data-testid={`statistic-figure-${m.key}`}>
            <Typography.Text type="secondary">{t(m.label)}</Typography.Text>
            <div style={{ fontSize: 22, fontWeight: 600, lineHeight: 1.4, overflowWrap: 'anywhere' }} data-testid="figure-value">
              {formatMeasure(value, m.format, locale)}
            </div>
            <FigureChange change={change} text={change === null ? t('statistics.page.noComparison') : t('statistics.page.change', { change: formatChange(change, locale) })} />
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {t('statistics.page.previousValue', { value: formatMeasure(previous, m.format, locale) })}
            </Typography.Text>
          </Card>
        );
      })}
    </Flex>
  );
}
