/**
 * antd's RangePicker on its own, for date-range-filter.tsx to load on first use: antd's date
 * picker with rc-picker is about 30 KB gzip that a list needs only once somebody picks a range.
 */
import { DatePicker } from 'antd';

export const RangePicker = DatePicker.RangePicker;
