/**
 * The frame of a generated page: a card whose header has the page title on the left and the page's
 * controls (search, buttons) on the right, wrapping on narrow screens.
 */
import type { ReactNode } from 'react';
import { Card, Flex, Typography } from 'antd';

export function PageCard({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
      {children}
    </Card>
  );
}
