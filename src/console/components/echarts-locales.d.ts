// ECharts ships its locale objects (lib/i18n/lang*.js, ES modules) without typings beside them;
// chart.tsx registers JA and ES with echarts.registerLocale. Their shape is the English one's.
declare module 'echarts/lib/i18n/langJA.js' {
  const lang: Parameters<typeof import('echarts/core').registerLocale>[1];
  export default lang;
}
declare module 'echarts/lib/i18n/langES.js' {
  const lang: Parameters<typeof import('echarts/core').registerLocale>[1];
  export default lang;
}
