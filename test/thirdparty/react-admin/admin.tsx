// @ts-nocheck — react-admin and React are installed on demand in a cache dir (app.ts), not in the
// project, so their types are not there for tsc; `bun build` bundles this file beside them.
/** @jsxImportSource react */
// The back office as a developer would write it with react-admin: customers and orders, each with
// a list (search and filters), a show page, an edit form and a create form; the sidebar menu is
// react-admin's own. Data goes to json-server's REST API under /api, through ra-data-json-server.
import PeopleIcon from '@mui/icons-material/People'
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart'
import jsonServerProvider from 'ra-data-json-server'
import {
  Admin,
  Create,
  Datagrid,
  Edit,
  EmailField,
  List,
  NumberField,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  Resource,
  required,
  SearchInput,
  SelectField,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
} from 'react-admin'
import { createRoot } from 'react-dom/client'

const STATUSES = ['pending', 'paid', 'shipped', 'cancelled'].map((id) => ({
  id,
  name: id[0].toUpperCase() + id.slice(1),
}))

const customerFields = [
  <TextInput key="name" source="name" validate={required()} />,
  <TextInput key="email" source="email" type="email" validate={required()} />,
  <TextInput key="phone" source="phone" />,
  <TextInput key="city" source="city" />,
]
const orderFields = [
  <TextInput key="reference" source="reference" validate={required()} />,
  <ReferenceInput key="customer" source="customerId" reference="customers">
    <SelectInput label="Customer" validate={required()} />
  </ReferenceInput>,
  <NumberInput key="total" source="total" />,
  <SelectInput key="status" source="status" choices={STATUSES} validate={required()} />,
]

const CustomerList = () => (
  <List filters={[<SearchInput key="q" source="q" alwaysOn />]} sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid rowClick="show">
      <TextField source="id" />
      <TextField source="name" />
      <EmailField source="email" />
      <TextField source="phone" />
      <TextField source="city" />
    </Datagrid>
  </List>
)
const CustomerShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="id" />
      <TextField source="name" />
      <EmailField source="email" />
      <TextField source="phone" />
      <TextField source="city" />
    </SimpleShowLayout>
  </Show>
)

const orderFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUSES} alwaysOn />,
]
const OrderList = () => (
  <List filters={orderFilters} sort={{ field: 'id', order: 'DESC' }}>
    <Datagrid rowClick="show">
      <TextField source="reference" />
      <ReferenceField source="customerId" reference="customers" label="Customer" />
      <NumberField source="total" options={{ style: 'currency', currency: 'EUR' }} />
      <SelectField source="status" choices={STATUSES} />
    </Datagrid>
  </List>
)
const OrderShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="reference" />
      <ReferenceField source="customerId" reference="customers" label="Customer" />
      <NumberField source="total" options={{ style: 'currency', currency: 'EUR' }} />
      <SelectField source="status" choices={STATUSES} />
    </SimpleShowLayout>
  </Show>
)

const CustomerEdit = () => (
  <Edit>
    <SimpleForm>
      <TextInput source="id" readOnly />
      {customerFields}
    </SimpleForm>
  </Edit>
)
const CustomerCreate = () => (
  <Create>
    <SimpleForm>{customerFields}</SimpleForm>
  </Create>
)
const OrderEdit = () => (
  <Edit>
    <SimpleForm>
      <TextInput source="id" readOnly />
      {orderFields}
    </SimpleForm>
  </Edit>
)
const OrderCreate = () => (
  <Create>
    <SimpleForm>{orderFields}</SimpleForm>
  </Create>
)

createRoot(document.getElementById('root')).render(
  <Admin title="Back office" dataProvider={jsonServerProvider('/api')} disableTelemetry>
    <Resource
      name="customers"
      recordRepresentation="name"
      list={CustomerList}
      show={CustomerShow}
      icon={PeopleIcon}
      edit={CustomerEdit}
      create={CustomerCreate}
    />
    <Resource
      name="orders"
      recordRepresentation="reference"
      list={OrderList}
      show={OrderShow}
      icon={ShoppingCartIcon}
      edit={OrderEdit}
      create={OrderCreate}
    />
  </Admin>,
)
