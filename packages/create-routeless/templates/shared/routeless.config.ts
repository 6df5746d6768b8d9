import { defineConfig } from 'routeless'

// The settings of the routeless CLI (serve, routes, check, build …); its flags and ROUTELESS_* variables win over them.
export default defineConfig({
  prefix: 'controllers',
  host: '127.0.0.1:8000',
})
