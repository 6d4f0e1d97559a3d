// Child process of `measureApart`: runs one load measurement and prints its result as JSON.
import { measure } from './load';

const { label, url, connections, seconds, headers, requests, paced } = JSON.parse(process.argv[2] ?? '{}');
console.log(JSON.stringify(await measure(label, url, connections, seconds, headers, requests, paced)));
